// Where tasks live: the `tasksDir` option, else $SPLATLAB_TASKS_DIR, else `tasks/` at the repo
// root (found from this module's location, so sources under tsx and the bundled out/ agree).
// Output: absolute folder path. Invariant: relative overrides resolve against the working folder.
import { join, resolve } from 'node:path';
import { repoRoot } from '../io/data-dir';

export function resolveTasksDir(tasksDir?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (tasksDir) return resolve(tasksDir);
  if (env.SPLATLAB_TASKS_DIR) return resolve(env.SPLATLAB_TASKS_DIR);
  return join(repoRoot(), 'tasks');
}

/** Folder of an object's data inside a tasks folder. */
export function objectDir(tasksDir: string, object: string): string {
  return join(tasksDir, 'objects', object);
}
