// Locates the repository root and the shared data folder (test images, LPIPS weights).
// Input: environment (SPLATLAB_DATA_DIR) and this module's location. Output: absolute paths.
// Invariant: the repo root is the nearest ancestor of this file holding package.json, so the
// answer is the same from sources (tsx, vitest) and from the bundled out/main; the `splatlab`
// launcher sets $SPLATLAB_ROOT to its own checkout, because the CLI bundle it runs lives under
// node_modules/.cache, and a linked node_modules (shared by two checkouts) would name the other.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Nearest ancestor of `from` (default: this module's folder) that contains package.json. */
export function repoRoot(from?: string): string {
  if (from === undefined && process.env.SPLATLAB_ROOT) return resolve(process.env.SPLATLAB_ROOT);
  let dir = resolve(from ?? dirname(fileURLToPath(import.meta.url)));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/** Shared data folder: $SPLATLAB_DATA_DIR, else ../shared/data beside the repo root. */
export function sharedDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SPLATLAB_DATA_DIR ? resolve(env.SPLATLAB_DATA_DIR) : resolve(repoRoot(), '..', 'shared', 'data');
}
