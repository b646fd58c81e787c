// Job handlers of the tile rasterizer's stages (src/shared/raster/cpu/tiles.ts) on the lab's worker
// pool: 'raster.tiles' (projection over Gaussian chunks, compositing over tile chunks; a split job,
// one part per thread) and 'raster.bin' (the radix depth order and the per-tile lists; one part).
// Compositing runs on the wasm kernel where it runs (src/shared/raster/cpu/composite-wasm.ts: the
// frame copied into the thread's module memory once per part), else on compositeTileRange.
// Input: a stage message whose arrays all lie in SharedArrayBuffers. Output: { ok } (the stage
// wrote into the shared frame or image) or the bins, themselves in SharedArrayBuffers.
// Invariant: a 'raster.tiles' part takes chunks from the shared counter ctl[0] until none is left
// or ctl[1] (cancel) is set, and counts the items it finished in ctl[2]; so any number of parts,
// started at any time, finishes the stage exactly once, and a part returns only when none is left.
import { prepareComposite } from '../../shared/raster/cpu/composite-wasm';
import { binTilesInOrder, compositeTileRange, depthOrderOfFrame, projectTileRange, type TileBins, type TileFrame, type TileInput } from '../../shared/raster/cpu/tiles';

/** One stage message as every part receives it (all arrays over SharedArrayBuffers). */
export interface TileStageMessage {
  type: 'project' | 'composite';
  ctl: Int32Array; // [next item, cancel flag, items done]
  chunk: number;
  total: number;
  frame: TileFrame;
  /** project: the scene and the packed camera (packTileCamera). */
  input?: TileInput;
  cam?: Float64Array;
  /** composite: the bins and the output image. */
  bins?: TileBins;
  rgb?: Float32Array;
  alpha?: Float32Array;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`tile stage: the message has no ${what}`);
  return value;
}

/** The work loop of one part: chunks from the shared counter until none is left or cancelled. */
export function runTileChunks(m: TileStageMessage): void {
  const ctl = m.ctl;
  const project = m.type === 'project' ? { input: required(m.input, 'input'), cam: required(m.cam, 'cam') } : null;
  const composite = m.type === 'composite' ? { bins: required(m.bins, 'bins'), rgb: required(m.rgb, 'rgb'), alpha: required(m.alpha, 'alpha') } : null;
  // Prepared on the part's first chunk, so a part that finds no chunk left copies nothing.
  let fast: ReturnType<typeof prepareComposite> | undefined;
  for (;;) {
    if (Atomics.load(ctl, 1) !== 0) break;
    const start = Atomics.add(ctl, 0, m.chunk);
    if (start >= m.total) break;
    const end = Math.min(m.total, start + m.chunk);
    if (project) projectTileRange(project.input, project.cam, start, end, m.frame);
    else if (composite) {
      if (fast === undefined) fast = prepareComposite(m.frame, composite.bins);
      if (fast) fast(start, end, composite.rgb, composite.alpha);
      else compositeTileRange(m.frame, composite.bins, start, end, composite.rgb, composite.alpha);
    }
    Atomics.add(ctl, 2, end - start);
  }
}

/** Job 'raster.tiles' (a split job): one part of a projection or compositing stage. */
export function tileStageJob(m: TileStageMessage): { ok: true } {
  runTileChunks(m);
  return { ok: true };
}

/** The bins of a frame with the sort's and the binning's own times (ms) and the visible count. */
export type TimedBins = TileBins & { sortMs: number; binMs: number; visible: number };

/** Job 'raster.bin': the per-tile lists of a projected frame, in SharedArrayBuffers (order left out). */
export function tileBinJob(m: { frame: TileFrame }): TimedBins {
  const t0 = performance.now();
  const order = depthOrderOfFrame(m.frame);
  const t1 = performance.now();
  const bins = binTilesInOrder(m.frame, order, true);
  const t2 = performance.now();
  return { order: new Uint32Array(0), offsets: bins.offsets, ids: bins.ids, sortMs: t1 - t0, binMs: t2 - t1, visible: order.length };
}
