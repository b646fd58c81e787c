// The tile compositing stage on the fast path (issue 40 item 4, docs/PERFORMANCE.md): the wasm
// kernel of composite-kernel.ts on this thread's instance, with compositeTileRange (tiles.ts, the
// JS reference) as the fallback where WebAssembly is missing, the frame would not fit the
// module's memory, or the overdraw count is asked for.
// Input: a projected frame and its bins (plain or shared typed arrays), tile ranges, an image.
// Output: the image of those tiles, equal to compositeTileRange's to the kernel exp's last bits
// (test/shared/raster/cpu/composite-wasm.test.ts holds it to 1e-6 on random frames).
// Invariant: prepareComposite copies the frame's visible rows (run by run, TileFrame.runs), the
// bins' lists into the module's memory once; the frame and bins must not change while its
// compositor is used (a render's stage composites one projected frame).
import { instantiateWasmSync, type WasmMemory } from '../../metrics/wasm/runtime';
import { COMPOSITE_PARAMS, emitCompositeModule, SCRATCH_BYTES } from './composite-kernel';
import { compositeTileRange, type TileBins, type TileFrame } from './tiles';

/** compositeTileRange's signature without the frame and bins (bound by prepareComposite). */
export type TileCompositor = (t0: number, t1: number, rgb: Float32Array, alphaOut: Float32Array, evaluated?: Int32Array) => void;

type CompositeFn = (...args: number[]) => void;
interface Kernel {
  composite: CompositeFn;
  memory: WasmMemory & { grow(pages: number): number };
}

/** Byte addresses must stay below 2^31 (the kernel's i32 arithmetic). */
const MAX_BYTES = 2 ** 31 - 65536;
let kernel: Kernel | null = null;
let unavailable = false;
let enabled = true;

/** Selects the JS compositor (false) or the wasm one where it runs (true, the default). */
export function setCompositeWasm(on: boolean): void {
  enabled = on;
}

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
 * A compositor of `f`'s tiles with `bins`: the wasm kernel when it runs here and the frame fits,
 * else compositeTileRange. Calls with `evaluated` (the debugger's overdraw) take the JS loop.
 */
export function prepareComposite(f: TileFrame, bins: TileBins): TileCompositor {
  const js: TileCompositor = (t0, t1, rgb, alphaOut, evaluated) => compositeTileRange(f, bins, t0, t1, rgb, alphaOut, evaluated);
  const k = enabled ? thisThreadsKernel() : null;
  if (!k) return js;
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
  if (end > MAX_BYTES) return js;
  const have = k.memory.buffer.byteLength;
  if (end > have) k.memory.grow(Math.ceil((end - have) / 65536));
  const buffer = k.memory.buffer;
  new Uint32Array(buffer, at.offsets, tiles + 1).set(bins.offsets.subarray(0, tiles + 1));
  new Uint32Array(buffer, at.ids, bins.ids.length).set(bins.ids);
  const rows: [Float64Array | Int32Array, string, number][] = [
    [f.xy, 'xy', 2],
    [f.conic, 'conic', 3],
    [f.radii, 'radii', 2],
    [f.opacity, 'opacity', 1],
    [f.qlim, 'qlim', 1],
    [f.color, 'color', 3],
  ];
  const views = rows.map(([a, name, w]) => [a, a instanceof Int32Array ? new Int32Array(buffer, at[name], count * w) : new Float64Array(buffer, at[name], count * w), w] as const);
  // The visible rows, range by range (frameRows' walk over TileFrame.runs).
  for (let s = 0; s < count; s = f.runs[s * 2]) {
    const e = f.runs[s * 2];
    if (!(e > s && e <= count)) throw new Error(`tile frame: the Gaussians from ${s} on were not projected`);
    const n = f.runs[s * 2 + 1];
    for (const [src, dst, w] of views) (dst as Float64Array).set((src as Float64Array).subarray(s * w, (s + n) * w), s * w);
  }
  const wrgb = new Float32Array(buffer, at.rgb, npix * 3);
  const walpha = new Float32Array(buffer, at.alpha, npix);
  const args = COMPOSITE_PARAMS.slice(5).map((name) => at[name]);
  return (t0, t1, rgb, alphaOut, evaluated) => {
    if (evaluated) return js(t0, t1, rgb, alphaOut, evaluated);
    k.composite(t0, t1, tilesX, width, height, ...args);
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

/** compositeTileRange's signature on the fast path (prepareComposite for one call). */
export function compositeTileRangeFast(f: TileFrame, bins: TileBins, t0: number, t1: number, rgb: Float32Array, alphaOut: Float32Array, evaluated?: Int32Array): void {
  prepareComposite(f, bins)(t0, t1, rgb, alphaOut, evaluated);
}
