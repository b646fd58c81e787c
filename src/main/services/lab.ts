// The main-process services behind LabApi: one handler per method of src/shared/api/lab.ts.
// Inputs: the live GPU context, the tasks folder and the task lister. Output: Handlers for any
// transport. Invariant: handlers only return public data; held-out views, anchors and hidden
// scores never appear in a result.
import type { TaskSummary } from '../../shared/task/schema';
import type { GpuContext } from '../gpu/device';
import type { Handlers } from './dispatch';
import { createEpisodeHandlers } from './episode';
import { createStudyHandlers } from './study';
import { createDebugHandlers } from './debug';
import { createAuthorHandlers } from './author';
import { EventHub } from './events';
import { refuseDuringSession } from './session-lock';

export interface LabDeps {
  gpu: GpuContext;
  tasksDir: string;
  version: string;
  transport: 'ipc' | 'ws' | 'direct';
  listTasks: (tasksDir: string) => Promise<TaskSummary[]>;
}

export interface LabServices {
  handlers: Handlers;
  events: EventHub;
}

export function createLabServices(deps: LabDeps): LabServices {
  const events = new EventHub();
  const handlers: Handlers = {
    'app.info': async () => ({
      name: 'SplatLab',
      version: deps.version,
      transport: deps.transport,
      gpu: deps.gpu.status,
      tasksDir: deps.tasksDir,
    }),
    'tasks.list': () => deps.listTasks(deps.tasksDir),
    ...createEpisodeHandlers(deps),
    ...createStudyHandlers(deps),
    ...createDebugHandlers(deps),
    ...refuseDuringSession(createAuthorHandlers(deps, events)),
  };
  return { handlers, events };
}
