// Where tasks live (docs/TASKS.md "Where tasks live", issue 38 item 8): the `tasksDir` option or
// $SPLATLAB_TASKS_DIR names one folder, read and written alone; without either the lab's folder is
// `<lab home>/tasks`, layered over the built-in set (`tasks/` of the application, read-only): reads
// find a file in the home's folder first, then in the built-in set; writes go to the home's folder
// only, and an id of the built-in set is refused there. Developers regenerating the committed set
// name it explicitly (`--tasks tasks`).
// Output: absolute folder paths. Invariant: relative overrides resolve against the working folder;
// nothing here writes; a folder is layered only when it was resolved as a lab home's default.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { repoRoot } from '../io/data-dir';
import { labHome } from '../io/home';

/** The lab homes' task folders resolved in this process (each layered over the built-in set). */
const layered = new Set<string>();

/** The built-in task set: `tasks/` of the application (read-only to the lab). */
export function builtInTasksDir(): string {
  return join(repoRoot(), 'tasks');
}

/** The user's task folder of a lab home (authored, imported and built tasks), layered over the built-in set. */
export function userTasksDir(home: string): string {
  const dir = join(resolve(home), 'tasks');
  layered.add(dir);
  return dir;
}

export function resolveTasksDir(tasksDir?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (tasksDir) return resolve(tasksDir);
  if (env.SPLATLAB_TASKS_DIR) return resolve(env.SPLATLAB_TASKS_DIR);
  return userTasksDir(labHome(env));
}

/** The built-in folder under a layered task folder, or null for a folder read alone. */
export function layerBelow(tasksDir: string): string | null {
  const dir = resolve(tasksDir);
  const base = builtInTasksDir();
  return layered.has(dir) && dir !== base ? base : null;
}

/** A file or folder of a task folder to read: the folder's own, else the built-in set's when layered. */
export function taskFile(tasksDir: string, rel: string): string {
  const own = join(tasksDir, rel);
  const base = layerBelow(tasksDir);
  if (!base || existsSync(own)) return own;
  const below = join(base, rel);
  return existsSync(below) ? below : own;
}

/** A path under a task folder (or under its built-in layer) as it reads relative to its own layer. */
export function taskRelative(tasksDir: string, path: string): string {
  const base = layerBelow(tasksDir);
  const root = base && !relative(base, path).startsWith('..') ? base : tasksDir;
  return relative(root, path).split('\\').join('/');
}

const READ_ONLY = 'which is read-only; choose another name (developers regenerating the built-in set pass --tasks tasks)';

/**
 * Refuses, in one line, to write a task (or an object folder) of the built-in set into a layered
 * folder: the user's copy would shadow the built-in one for the built-in set's own tasks.
 */
export function checkNotBuiltIn(tasksDir: string, taskIds: readonly string[], object?: string): void {
  const base = layerBelow(tasksDir);
  if (!base) return;
  if (object !== undefined && existsSync(join(base, 'objects', object))) throw new Error(`'${object}' is an object of the built-in set, ${READ_ONLY}`);
  const taken = taskIds.filter((id) => existsSync(join(base, `${id}.json`)));
  if (taken.length) throw new Error(`${listed(taken)}: a task of the built-in set, ${READ_ONLY}`);
}

/** Refuses, in one line, to write files (relative paths) that the built-in set holds into a layered folder. */
export function checkNoBuiltInFiles(tasksDir: string, files: readonly string[]): void {
  const base = layerBelow(tasksDir);
  const taken = base ? files.filter((f) => existsSync(join(base, f))) : [];
  if (taken.length) throw new Error(`${listed(taken)}: a file of the built-in set, ${READ_ONLY}`);
}

function listed(names: readonly string[]): string {
  return `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''}`;
}

/** Names of the entries of a sub-folder in a task folder and, when layered, in the built-in set (own first, no repeats). */
export function layeredEntries(tasksDir: string, rel: string): { name: string; dir: string; isDirectory: boolean; isFile: boolean }[] {
  const roots = [tasksDir, layerBelow(tasksDir)].filter((r): r is string => !!r);
  const seen = new Set<string>();
  const out: { name: string; dir: string; isDirectory: boolean; isFile: boolean }[] = [];
  for (const root of roots) {
    const dir = join(root, rel);
    if (!existsSync(dir)) continue;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (seen.has(e.name)) continue;
      seen.add(e.name);
      out.push({ name: e.name, dir, isDirectory: e.isDirectory(), isFile: e.isFile() });
    }
  }
  return out;
}

/** Folder of an object's data inside a tasks folder (where it is written). */
export function objectDir(tasksDir: string, object: string): string {
  return join(tasksDir, 'objects', object);
}

/** Folder of an object's data to read: the folder's own, else the built-in set's when layered. */
export function readObjectDir(tasksDir: string, object: string): string {
  return taskFile(tasksDir, join('objects', object));
}
