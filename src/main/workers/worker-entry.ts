// Starts one thread of the worker pool wherever the lab runs. In the electron-vite build the
// worker entry is its own file next to the main bundle (out/main/pool-worker.js, an input of
// electron.vite.config.ts); from source (tsx: tests, `splatlab serve`) the thread loads
// pool-worker.ts through tsx's CommonJS hook, because Node 20 does not pass the --import hooks
// of the parent on to worker threads. Output: the Worker. Invariant: the same handlers run both ways.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

// Names in variables: bundlers treat a literal `new URL('./x', import.meta.url)` as an asset.
const BUILT_ENTRY = './pool-worker.js';
const SOURCE_ENTRY = './pool-worker.ts';

export function startPoolWorker(resourceLimits?: ResourceLimits): Worker {
  const limits = resourceLimits ? { resourceLimits } : {};
  const built = new URL(BUILT_ENTRY, import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built, limits);
  const source = new URL(SOURCE_ENTRY, import.meta.url).href;
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const boot = `require(${JSON.stringify(tsx)}).require(${JSON.stringify(source)}, ${JSON.stringify(source)});`;
  // The boot line is CommonJS: a parent run with --input-type=module must not pass that on.
  const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
  return new Worker(boot, { eval: true, execArgv, ...limits });
}
