// The composition root (docs/DESIGN.md, "Composition root"): builds the one LabContext of this
// process (GPU device and fallback, task repository, grader, episode manager, event bus, debugger
// sessions) and the services over it, whichever front door is used (Electron, `splatlab serve`).
// Invariant: called once per process; LabServices.context.close() releases what it built.
import { acquireGpu } from '../gpu/device';
import { createLabContext } from '../services/context';
import { createLabServices, type LabServices } from '../services/lab';
import { packageVersion } from './paths';

export interface LabOptions {
  transport: 'ipc' | 'ws' | 'direct';
  tasksDir?: string;
  forceCpu?: boolean;
}

export async function createLab(options: LabOptions): Promise<LabServices> {
  const gpu = await acquireGpu({ forceCpu: options.forceCpu });
  const context = createLabContext({ gpu, ...(options.tasksDir ? { tasksDir: options.tasksDir } : {}), version: packageVersion(), transport: options.transport });
  // The pool's threads load their modules now, not when the first render_views or grade waits (issue 40 item 3).
  context.pool.prestart();
  return createLabServices(context);
}
