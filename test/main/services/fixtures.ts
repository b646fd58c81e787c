// Test fixtures: LabServices over a fake task lister and the CPU GPU-context, no Dawn involved.
import { createLabServices, type LabServices } from '../../../src/main/services/lab';
import type { TaskListItem } from '../../../src/shared/task/registry';

export function fakeServices(tasks: TaskListItem[] = []): LabServices {
  return createLabServices({
    gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: 'CPU reference', summary: 'test' } },
    tasksDir: '/tmp/tasks',
    version: '0.0.0-test',
    transport: 'direct',
    listTasks: async () => tasks,
  });
}
