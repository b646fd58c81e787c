// Locates the repository root and the data folder (captures such as NeRF-Synthetic's lego that
// `splatlab doctor` looks for). Input: environment (SPLATLAB_DATA_DIR, SPLATLAB_HOME) and this
// module's location. Output: absolute paths. No default points outside the project and the lab
// home (issue 38 item 8); the test suite's shared data folder is test/helpers/data.ts's.
// Invariant: the repo root is the nearest ancestor of this file holding package.json, so the
// answer is the same from sources (tsx, vitest) and from the bundled out/main; the `splatlab`
// launcher sets $SPLATLAB_ROOT to its own checkout, because the CLI bundle it runs lives under
// node_modules/.cache, and a linked node_modules (shared by two checkouts) would name the other.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { labHome } from './home';

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

/** The data folder: $SPLATLAB_DATA_DIR, else <lab home>/data. */
export function sharedDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SPLATLAB_DATA_DIR ? resolve(env.SPLATLAB_DATA_DIR) : join(labHome(env), 'data');
}
