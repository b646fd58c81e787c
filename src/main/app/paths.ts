// Where things live on disk: the package root (found from this module, so it works from src/ via
// tsx and from the bundled out/ folder), the built UI, the tasks folder and the shared data.
// Invariant: environment variables override defaults; nothing here creates files.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | undefined;

export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'splatlab') return (cachedRoot = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the splatlab package root above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

export function packageVersion(): string {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version as string;
}

export const uiRoot = (): string => join(packageRoot(), 'out', 'renderer');
export const tasksDir = (): string => resolve(process.env.SPLATLAB_TASKS_DIR ?? join(packageRoot(), 'tasks'));
/** Shared data folder (LPIPS weights, real captures): env SPLATLAB_DATA_DIR or ../shared/data. */
export const dataDir = (): string => resolve(process.env.SPLATLAB_DATA_DIR ?? join(packageRoot(), '..', 'shared', 'data'));
