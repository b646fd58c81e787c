// The tile compositing stage on the fast path (issue 40 item 4, docs/PERFORMANCE.md): the wasm
// kernel of composite-kernel.ts on this thread's instance (one per thread, compiled on first use).
// Its callers (tiles.ts's compositeTileRangeFast and rasterizeTiles, the pool's composite job in
// src/main/raster/tile-jobs.ts) fall back to compositeTileRange (tiles.ts, the JS reference) where
// prepareComposite gives null: no WebAssembly here, or the frame too large for the module's memory.
// Input: a projected frame and its bins (plain or shared typed arrays), tile ranges, an image.
// Output: the image of those tiles, equal to compositeTileRange's to the kernel exp's last bits
// (test/shared/raster/cpu/composite-wasm.test.ts holds it to 1e-6 on random frames).
// Invariant: prepareComposite copies the frame's visible rows (run by run, TileFrame.runs) and the
// bins' lists into the module's memory once; the frame and bins must not change while its
// compositor is used (a render's stage composites one projected frame), and a thread's compositor
// is valid until the next prepareComposite on that thread (they share the memory).
import { instantiateWasmSync, type WasmMemory } from '../../wasm/runtime';
import { COMPOSITE_PARAMS, emitCompositeModule, SCRATCH_BYTES } from './composite-kernel';
import type { TileBins, TileFrame } from './tiles';

/** compositeTileRange's signature without the frame, the bins and the overdraw count (bound by prepareComposite). */
export type TileCompositor = (t0: number, t1: number, rgb: Float32Array, alphaOut: Float32Array) => void;

type CompositeFn = (...args: number[]) => void;
interface Kernel {
  composite: CompositeFn;
  memory: WasmMemory & { grow(pages: number): number };
}

/** Byte addresses must stay below 2^31 (the kernel's i32 arithmetic). */
const MAX_BYTES = 2 ** 31 - 65536;
/**
 * Tiles per kernel call at most: V8 first runs a new module's code unoptimised (Liftoff) and
 * swaps in the optimised code between calls, so one call for a whole frame would run all of it
 * unoptimised (twice the time, measured on the 1.5M frame's first render).
 */
const CALL_TILES = 16;
let kernel: Kernel | null = null;
let unavailable = false;

function thisThreadsKernel(): Kernel | null {
  if (kernel || unavailable) return kernel;
  try {
    const exports = instantiateWasmSync(emitCompositeModule(1));
    kernel = { composite: exports.composite as CompositeFn, memory: exports.memory as Kernel['memory'] };
  } catch {
    unavailable = true; // no WebAssembly here, or a synchronous compile refused: the JS loop
  }
  return kernel;
}

const align = (n: number): number => Math.ceil(n / 64) * 64;

/**
 * A compositor of `f`'s tiles with `bins` on the wasm kernel, its inputs copied into the module's
 * memory now; null where the kernel does not run here or the frame does not fit.
 */
export function prepareComposite(f: TileFrame, bins: TileBins): TileCompositor | null {
  const k = thisThreadsKernel();
  if (!k) return null;
  const { width, height, tilesX, count } = f;
  const npix = width * height;
  const tiles = tilesX * f.tilesY;
  // Layout: scratch, rgb, alpha, offsets, ids, then the rows' arrays at full row capacity (only
  // the visible rows' pages are written).
  const at: Record<string, number> = {};
  let end = 0;
  const put = (name: string, bytes: number): void => {
    at[name] = end;
    end = align(end + bytes);
  };
  put('scratch', SCRATCH_BYTES);
  put('rgb', npix * 12);
  put('alpha', npix * 4);
  put('offsets', (tiles + 1) * 4);
  put('ids', bins.ids.length * 4);
  put('xy', count * 16);
  put('conic', count * 24);
  put('radii', count * 8);
  put('opacity', count * 8);
  put('qlim', count * 8);
  put('color', count * 24);
  if (end > MAX_BYTES) return null;
  const have = k.memory.buffer.byteLength;
  if (end > have) k.memory.grow(Math.ceil((end - have) / 65536));
  const buffer = k.memory.buffer;
  new Uint32Array(buffer, at.offsets, tiles + 1).set(bins.offsets.subarray(0, tiles + 1));
  new Uint32Array(buffer, at.ids, bins.ids.length).set(bins.ids);
  // Each row array with its copy in the module's memory and its floats (or ints) a row.
  const f64 = (src: Float64Array, name: string, w: number): [Float64Array, Float64Array, number] => [src, new Float64Array(buffer, at[name], count * w), w];
  const pairs = [f64(f.xy, 'xy', 2), f64(f.conic, 'conic', 3), f64(f.opacity, 'opacity', 1), f64(f.qlim, 'qlim', 1), f64(f.color, 'color', 3)];
  const radii = new Int32Array(buffer, at.radii, count * 2);
  // The visible rows, range by range (frameRows' walk over TileFrame.runs).
  for (let s = 0; s < count; s = f.runs[s * 2]) {
    const e = f.runs[s * 2];
    if (!(e > s && e <= count)) throw new Error(`tile frame: the Gaussians from ${s} on were not projected`);
    const n = f.runs[s * 2 + 1];
    for (const [src, dst, w] of pairs) dst.set(src.subarray(s * w, (s + n) * w), s * w);
    radii.set(f.radii.subarray(s * 2, (s + n) * 2), s * 2);
  }
  const wrgb = new Float32Array(buffer, at.rgb, npix * 3);
  const walpha = new Float32Array(buffer, at.alpha, npix);
  const args = COMPOSITE_PARAMS.slice(5).map((name) => at[name]);
  return (t0, t1, rgb, alphaOut) => {
    for (let t = t0; t < t1; t += CALL_TILES) k.composite(t, Math.min(t1, t + CALL_TILES), tilesX, width, height, ...args);
    if (t0 === 0 && t1 >= tiles) {
      rgb.set(wrgb);
      alphaOut.set(walpha);
      return;
    }
    // The range's tiles, row by row (other threads write the tiles beside them).
    for (let tile = t0; tile < t1; tile++) {
      const x0 = (tile % tilesX) * 16;
      const y0 = Math.floor(tile / tilesX) * 16;
      const x1 = Math.min(width, x0 + 16);
      for (let y = y0, y1 = Math.min(height, y0 + 16); y < y1; y++) {
        const p0 = y * width + x0;
        const p1 = y * width + x1;
        rgb.set(wrgb.subarray(p0 * 3, p1 * 3), p0 * 3);
        alphaOut.set(walpha.subarray(p0, p1), p0);
      }
    }
  };
}
