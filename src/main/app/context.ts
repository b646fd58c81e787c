// Builds the lab's main-process services once per process, whichever front door is used
// (Electron, `splatlab serve`, tests calling LabApi directly).
import { acquireGpu } from '../gpu/device';
import { createLabServices, type LabServices } from '../services/lab';
import { listTasks } from '../tasks/load';
import { resolveTasksDir } from '../tasks/paths';
import { packageVersion } from './paths';

export interface LabOptions {
  transport: 'ipc' | 'ws' | 'direct';
  tasksDir?: string;
  forceCpu?: boolean;
}

export async function createLab(options: LabOptions): Promise<LabServices> {
  const gpu = await acquireGpu({ forceCpu: options.forceCpu });
  return createLabServices({
    gpu,
    tasksDir: resolveTasksDir(options.tasksDir),
    version: packageVersion(),
    transport: options.transport,
    listTasks,
  });
}
