// Source text of a tile-rasterizer worker thread, run with `new Worker(source, { eval: true })`
// (as the LPIPS pool does) so it works the same under tsx, vitest and the bundled main process.
// It embeds the self-contained kernels of src/shared/raster/cpu/tiles.ts by their source text.
// Messages: { job, type: 'project' | 'composite', ... } with every array in a SharedArrayBuffer;
// work is taken in chunks from a shared atomic counter (ctl[0]) until none is left or ctl[1]
// (cancel) is set; replies { job, ok, message? }.
import { compositeTileRange, projectTileRange } from '../../shared/raster/cpu/tiles';

/** One stage message as every thread receives it (all arrays over SharedArrayBuffers). */
export interface TileStageMessage {
  type: 'project' | 'composite';
  ctl: Int32Array; // [next item, cancel flag, items done]
  chunk: number;
  total: number;
  [field: string]: unknown;
}

/**
 * The work loop of one thread: take chunks from the shared counter until none is left or the
 * stage is cancelled. Self-contained (its kernels come as arguments), so it serves the eval'd
 * worker below and a job handler of the lab's worker pool alike.
 */
export function runTileChunks(m: TileStageMessage, project: typeof projectTileRange, composite: typeof compositeTileRange): void {
  const ctl = m.ctl;
  for (;;) {
    if (Atomics.load(ctl, 1) !== 0) break;
    const start = Atomics.add(ctl, 0, m.chunk);
    if (start >= m.total) break;
    const end = Math.min(m.total, start + m.chunk);
    if (m.type === 'project') project(m.input as never, m.cam as Float64Array, start, end, m.frame as never);
    else composite(m.frame as never, m.bins as never, start, end, m.rgb as Float32Array, m.alpha as Float32Array);
    Atomics.add(ctl, 2, end - start);
  }
}

/** A job handler for the lab's worker pool (`'raster.tiles': tileStageJob` in its jobs table). */
export function tileStageJob(m: TileStageMessage): { ok: true } {
  runTileChunks(m, projectTileRange, compositeTileRange);
  return { ok: true };
}

export function tileWorkerSource(): string {
  return String.raw`
'use strict';
const { parentPort } = require('node:worker_threads');
// esbuild's keepNames helper, in case a transform referenced it inside a kernel.
const __name = (f) => f;
const projectTileRange = (${projectTileRange.toString()});
const compositeTileRange = (${compositeTileRange.toString()});
const runTileChunks = (${runTileChunks.toString()});
parentPort.on('message', (m) => {
  try {
    runTileChunks(m, projectTileRange, compositeTileRange);
    parentPort.postMessage({ job: m.job, ok: true });
  } catch (e) {
    parentPort.postMessage({ job: m.job, ok: false, message: String(e && e.stack || e) });
  }
});
`;
}
