// The 11-tap line passes of SsimTarget (ssim-target.ts) and its map sum: in JS (the CPU
// reference: the passes below, metrics/ssim.ts's ssimMapSum) and in WebAssembly SIMD
// (wasm/ssim-kernels.ts, two outputs per f64x2 vector; issue 40 item 1), with one signature. A pass writes `rows` rows of `count` consecutive outputs; rows are `w` floats
// apart in both planes: hsym out[o + r w + i] = the symmetric sum of a's taps 1 apart around
// a[c + r w + i]; vsym the same with taps w apart (down the columns); vseq the window-order sum
// from 0 with taps w apart.
// Input: float64 planes. The wasm passes and map sum run on planes allocated from their memory
// (plane()); given any other array they run the JS one.
// Invariant: every output of both implementations is bit for bit the same float (the same
// operations in the same order; test/shared/metrics/ssim-lines.test.ts).
import { gaussianKernel } from './gaussian';
import { ssimMapSum, SSIM_C1, SSIM_C2, SSIM_PAD, SSIM_SIGMA, SSIM_TRUNCATE, type SsimMomentGrads } from './ssim';
import { instantiateWasmSync, type WasmMemory } from '../wasm/runtime';
import { emitSsimModule } from './wasm/ssim-kernels';

export const SSIM_KERNEL = gaussianKernel(SSIM_SIGMA, SSIM_TRUNCATE);
if (SSIM_KERNEL.length !== 11) throw new Error(`SsimTarget expects an 11-tap window, got ${SSIM_KERNEL.length}`);
const R = 5;
// The window is symmetric (k[t] = k[10 - t]), so each output needs 6 multiplies instead of 11.
const [K0, K1, K2, K3, K4, K5] = SSIM_KERNEL;

/** The three passes, on planes of one width. */
export interface Lines11 {
  hsym(a: Float64Array, c: number, out: Float64Array, o: number, count: number, rows: number): void;
  vsym(a: Float64Array, c: number, out: Float64Array, o: number, count: number, rows: number): void;
  vseq(a: Float64Array, c: number, out: Float64Array, o: number, count: number, rows: number): void;
}

/**
 * The symmetric 11-tap dot product along a line: out[o + i * os] = K5 a[c'] + K4 (a[c' - st] +
 * a[c' + st]) + ... + K0 (a[c' - 5 st] + a[c' + 5 st]) with c' = c + i * st, for i in [0, count);
 * the window slides in locals, so each output loads one new sample instead of eleven.
 */
function slide11(a: Float64Array, c: number, st: number, out: Float64Array, o: number, os: number, count: number): void {
  if (count <= 0) return;
  let a0 = a[c - 5 * st], a1 = a[c - 4 * st], a2 = a[c - 3 * st], a3 = a[c - 2 * st], a4 = a[c - st], a5 = a[c];
  let a6 = a[c + st], a7 = a[c + 2 * st], a8 = a[c + 3 * st], a9 = a[c + 4 * st], a10 = a[c + 5 * st];
  let next = c + 6 * st;
  for (let i = 0; ; i++) {
    out[o + i * os] = K5 * a5 + K4 * (a4 + a6) + K3 * (a3 + a7) + K2 * (a2 + a8) + K1 * (a1 + a9) + K0 * (a0 + a10);
    if (i + 1 >= count) return;
    a0 = a1; a1 = a2; a2 = a3; a3 = a4; a4 = a5; a5 = a6; a6 = a7; a7 = a8; a8 = a9; a9 = a10;
    a10 = a[next];
    next += st;
  }
}

/** The same 11-tap dot product summed in window order, from 0 (c - 5 st first). */
function seq11(a: Float64Array, c: number, st: number): number {
  let sum = 0;
  for (let t = 0; t < 11; t++) sum += SSIM_KERNEL[t] * a[c + (t - R) * st];
  return sum;
}

/** The JS passes (the reference): along rows, and down each column with the window sliding along it. */
export function jsLines(w: number): Lines11 {
  return {
    hsym(a, c, out, o, count, rows) {
      for (let r = 0; r < rows; r++) slide11(a, c + r * w, 1, out, o + r * w, 1, count);
    },
    vsym(a, c, out, o, count, rows) {
      for (let i = 0; i < count; i++) slide11(a, c + i, w, out, o + i, w, rows);
    },
    vseq(a, c, out, o, count, rows) {
      for (let r = 0; r < rows; r++) for (let i = 0; i < count; i++) out[o + r * w + i] = seq11(a, c + r * w + i, w);
    },
  };
}

/** The wasm passes and the planes they run on. */
export interface WasmLines {
  lines: Lines11;
  /** ssimMapSum's signature and result, in wasm SIMD when every plane is in the module's memory. */
  mapSum: typeof ssimMapSum;
  /** A plane of `n` floats in the module's memory (null when the memory is used up); zeroed when new, not when reused. */
  plane(n: number): Float64Array | null;
  /** Gives a plane back for plane() to hand out again. */
  release(p: Float64Array): void;
}

type LineFn = (aPtr: number, outPtr: number, count: number, rows: number) => void;
type MapSumFn = (ux: number, uy: number, uxx: number, uyy: number, uxy: number, gx: number, gxx: number, gxy: number, scale: number, grad: number, r0: number, r1: number) => number;

/** Planes above this many bytes in all stay in JS (byte addresses must stay below 2^31). */
const MAX_BYTES = 1 << 30;
let wasmUnavailable = false;

/**
 * The wasm passes for planes `w` floats wide, with room for `floats` floats of planes; null where
 * WebAssembly (with SIMD) is unavailable or the planes would not fit.
 */
export function wasmLines(w: number, floats: number): WasmLines | null {
  const bytes = floats * 8;
  if (wasmUnavailable || bytes > MAX_BYTES) return null;
  let exports: Record<string, unknown>;
  try {
    exports = instantiateWasmSync(emitSsimModule(SSIM_KERNEL, w, Math.ceil(bytes / 65536), { pad: SSIM_PAD, c1: SSIM_C1, c2: SSIM_C2 }));
  } catch {
    wasmUnavailable = true; // no WebAssembly, no SIMD, or a synchronous compile refused: JS passes
    return null;
  }
  const buffer = (exports.memory as WasmMemory).buffer;
  const js = jsLines(w);
  const pass = (fn: LineFn, fallback: Lines11['hsym']): Lines11['hsym'] => (a, c, out, o, count, rows) => {
    if (a.buffer === buffer && out.buffer === buffer) fn(a.byteOffset + c * 8, out.byteOffset + o * 8, count, rows);
    else fallback(a, c, out, o, count, rows);
  };
  const mapsum = exports.mapsum as MapSumFn;
  const mine = (...planes: Float64Array[]): boolean => planes.every((p) => p.buffer === buffer);
  let next = 0;
  const free = new Map<number, number[]>(); // plane length -> byte offsets given back
  return {
    lines: {
      hsym: pass(exports.hsym as LineFn, js.hsym),
      vsym: pass(exports.vsym as LineFn, js.vsym),
      vseq: pass(exports.vseq as LineFn, js.vseq),
    },
    mapSum(m, pw, ph, g?: SsimMomentGrads, rows?) {
      const gp = g ? [g.ux, g.uxx, g.uxy] : [m.ux, m.ux, m.ux];
      if (pw !== w || !mine(m.ux, m.uy, m.uxx, m.uyy, m.uxy, ...gp)) return ssimMapSum(m, pw, ph, g, rows);
      const r0 = Math.max(SSIM_PAD, rows ? rows[0] : SSIM_PAD);
      const r1 = Math.min(ph - SSIM_PAD, rows ? rows[1] : ph - SSIM_PAD);
      const [gx, gxx, gxy] = gp.map((p) => p.byteOffset);
      return mapsum(m.ux.byteOffset, m.uy.byteOffset, m.uxx.byteOffset, m.uyy.byteOffset, m.uxy.byteOffset, gx, gxx, gxy, g?.scale ?? 0, g ? 1 : 0, r0, r1);
    },
    plane(n) {
      const reused = free.get(n)?.pop();
      if (reused !== undefined) return new Float64Array(buffer, reused, n);
      if (next + n * 8 > bytes) return null;
      const p = new Float64Array(buffer, next, n);
      next += n * 8;
      return p;
    },
    release(p) {
      if (p.buffer !== buffer) return;
      const list = free.get(p.length) ?? [];
      list.push(p.byteOffset);
      free.set(p.length, list);
    },
  };
}
