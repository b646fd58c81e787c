// Atomic task writing: everything is built in a staging folder beside the tasks folder, then
// moved into place with renames, so a failed or interrupted build leaves no half-written task.
// Input: the tasks folder, an object name and a builder that fills the staging folder with
// `objects/<object>/...` and `<task_id>.json` files. Output: the installed paths.
// Invariant: on any error the staging folder is removed and the tasks folder is unchanged; an
// existing object folder is only replaced once its successor is complete; an object or task of the
// built-in set is never written into a lab home's layered folder (tasks/paths.ts checkNotBuiltIn).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkNotBuiltIn, objectDir } from '../tasks/paths';

export interface Staged {
  root: string; // staging folder (same layout as a tasks folder)
  objectDir: string; // root/objects/<object>
}

/** Runs `build` in a fresh staging folder, then installs its object folder and task specs. */
export async function buildStaged<T>(tasksDir: string, object: string, build: (staged: Staged) => Promise<T>): Promise<T> {
  checkNotBuiltIn(tasksDir, [], object);
  mkdirSync(tasksDir, { recursive: true });
  const root = mkdtempSync(join(tasksDir, `.staging-${object}-`));
  try {
    const staged: Staged = { root, objectDir: objectDir(root, object) };
    mkdirSync(staged.objectDir, { recursive: true });
    const result = await build(staged);
    install(root, tasksDir, object);
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function install(root: string, tasksDir: string, object: string): void {
  checkNotBuiltIn(tasksDir, readdirSync(root).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)), object);
  const target = objectDir(tasksDir, object);
  mkdirSync(join(tasksDir, 'objects'), { recursive: true });
  const old = `${target}.old-${process.pid}`;
  if (existsSync(target)) renameSync(target, old);
  try {
    renameSync(objectDir(root, object), target);
  } catch (err) {
    if (existsSync(old)) renameSync(old, target);
    throw err;
  }
  rmSync(old, { recursive: true, force: true });
  // Specs are single files: each rename replaces the old spec atomically.
  for (const f of readdirSync(root)) {
    if (f.endsWith('.json')) renameSync(join(root, f), join(tasksDir, f));
  }
}
