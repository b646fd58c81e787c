// Starts one thread of the worker pool wherever the lab runs. In the electron-vite build the
// worker entry is its own file next to the main bundle (out/main/pool-worker.js, an input of
// electron.vite.config.ts); from source (tests, `splatlab serve`) it is the cached esbuild bundle
// of pool-worker.ts (compiled.ts, built on first start and rebuilt when a source changes), and
// only when that cannot be built (or SPLATLAB_NO_COMPILED_WORKERS=1) the thread loads
// pool-worker.ts through tsx's CommonJS hook, because Node 20 does not pass the --import hooks
// of the parent on to worker threads. The 'raster' entry (threads/raster-worker.ts: the tile
// rasterizer's jobs alone) is bundled the same way; the electron-vite build has only its
// pool-worker.js, which runs those jobs too. Output: the Worker, given `data` as its workerData. Invariant: the same handlers run all ways.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot } from '../io/data-dir';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { compiledPoolWorker } from './compiled';

// Names in variables: bundlers treat a literal `new URL('./x', import.meta.url)` as an asset.
const BUILT_ENTRY = './pool-worker.js';

/** Which worker script a pool's threads run: every job kind, or the tile rasterizer's only. */
export type PoolEntry = 'pool' | 'raster';

const SOURCES: Record<PoolEntry, string> = { pool: 'pool-worker.ts', raster: 'raster-worker.ts' };

/** What a pool thread reads at start (serve-jobs.ts): the niceness it lowers itself to, if any. */
export interface PoolWorkerData {
  nice?: number;
}

export function startPoolWorker(resourceLimits?: ResourceLimits, entry: PoolEntry = 'pool', data: PoolWorkerData = {}): Worker {
  const limits = { ...(resourceLimits ? { resourceLimits } : {}), workerData: data };
  const built = new URL(BUILT_ENTRY, import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built, limits);
  const compiled = compiledPoolWorker(SOURCES[entry]);
  // The parent's loader flags (tsx's --import) are not needed by plain JavaScript.
  if (compiled) return new Worker(compiled, { ...limits, execArgv: [] });
  // From the repository root, not this module: the CLI's bundle (compiled-cli.mjs) lives elsewhere.
  const source = pathToFileURL(join(repoRoot(), 'src', 'main', 'threads', SOURCES[entry])).href;
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const boot = `require(${JSON.stringify(tsx)}).require(${JSON.stringify(source)}, ${JSON.stringify(source)});`;
  // The boot line is CommonJS: a parent run with --input-type=module must not pass that on.
  const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  return new Worker(boot, { eval: true, execArgv, ...limits });
}
