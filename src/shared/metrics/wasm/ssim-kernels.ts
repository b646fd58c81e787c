// SSIM's 11-tap blurs in WebAssembly SIMD (issue 40 item 1: the fit's step): the separable
// passes of ssim-target.ts, two neighbouring outputs per f64x2 vector. Each lane computes its
// output with the same float64 operations in the same order as the JS (slide11's symmetric sum
// K5 a5 + K4 (a4 + a6) + ... + K0 (a0 + a10), or seq11's window-order sum from 0), and wasm never
// fuses a multiply into an add, so every output is bit for bit the JS one.
// Layout: float64 planes in the module's one memory, rows `width` floats apart. A line function
// (aPtr, outPtr, count, rows) writes, for each of `rows` rows (both pointers advance one row a
// row), `count` consecutive outputs out[i] = taps of a around a[i] at the function's tap stride
// (1 float: along a row; `width` floats: down the columns). aPtr is the byte address of the
// first output's centre tap; every tap read must lie in memory (the JS reads the same samples).
// Invariant: byte-equal results to the JS passes (test/shared/metrics/ssim-wasm.test.ts).
import { emitModule, FunctionBuilder, I32, V128 } from './emitter';

/** The sum orders of ssim-target.ts's passes. */
export type TapOrder = 'sym' | 'seq';

/** The exported line functions: along rows (symmetric), down columns (symmetric and window order). */
export const SSIM_LINE_FUNCTIONS = { hsym: { order: 'sym', down: false }, vsym: { order: 'sym', down: true }, vseq: { order: 'seq', down: true } } as const;
export type SsimLineName = keyof typeof SSIM_LINE_FUNCTIONS;

/**
 * One line function for 11 taps `k` at `tapBytes` apart, rows `rowBytes` apart. Both orders push
 * the same operation sequence for a vector (f64x2) or a scalar (f64) output.
 */
export function emitLine11(name: string, k: readonly number[], order: TapOrder, tapBytes: number, rowBytes: number): FunctionBuilder {
  if (k.length !== 11) throw new Error(`ssim kernels: 11 taps expected, got ${k.length}`);
  const f = new FunctionBuilder(name, [I32, I32, I32, I32], []);
  const [aPtr, outPtr, count, rows] = [0, 1, 2, 3];
  const [r, p, o, end] = [f.local(I32), f.local(I32), f.local(I32), f.local(I32)];
  // The taps as f64x2 constants (the symmetric order reads k[0..5] only).
  const used = order === 'sym' ? 6 : 11;
  const kv = k.slice(0, used).map(() => f.local(V128));
  for (let t = 0; t < used; t++) f.f64(k[t]).f64x2Splat().set(kv[t]);

  // Taps are read at p + t * tapBytes, p = the centre minus 5 taps (memarg offsets are unsigned).
  const vec = (t: number): void => {
    f.get(p).v128Load(t * tapBytes);
  };
  const sca = (t: number): void => {
    f.get(p).f64Load(t * tapBytes);
  };
  /** Leaves the output on the stack: lanes (vector) or one f64 (scalar). */
  const value = (simd: boolean): void => {
    const load = simd ? vec : sca;
    const mul = (): void => void (simd ? f.f64x2Mul() : f.f64Mul());
    const add = (): void => void (simd ? f.f64x2Add() : f.f64Add());
    const kOf = (t: number): void => void (simd ? f.get(kv[t]) : f.f64(k[t]));
    if (order === 'sym') {
      // K5 a5 + K4 (a4 + a6) + K3 (a3 + a7) + K2 (a2 + a8) + K1 (a1 + a9) + K0 (a0 + a10), left to right.
      kOf(5);
      load(5);
      mul();
      for (let d = 1; d <= 5; d++) {
        kOf(5 - d);
        load(5 - d);
        load(5 + d);
        add();
        mul();
        add();
      }
    } else {
      // ((0 + K0 a0) + K1 a1) + ... + K10 a10.
      if (simd) f.v128Zero();
      else f.f64(0);
      for (let t = 0; t < 11; t++) {
        kOf(t);
        load(t);
        mul();
        add();
      }
    }
  };

  f.get(rows).i32(0).i32GtS().get(count).i32(0).i32GtS().i32And().if_();
  f.i32(0).set(r);
  f.loop(); // rows
  {
    f.get(aPtr).i32(5 * tapBytes).i32Sub().set(p);
    f.get(outPtr).set(o);
    f.get(outPtr).get(count).i32(-2).i32And().i32(8).i32Mul().i32Add().set(end);
    f.get(o).get(end).i32LtS().if_();
    f.loop(); // output pairs
    {
      f.get(o);
      value(true);
      f.v128Store();
      f.inc(p, 16).inc(o, 16);
      f.get(o).get(end).i32LtS().brIf(0);
    }
    f.end();
    f.end();
    f.get(count).i32(1).i32And().if_();
    f.get(o);
    value(false);
    f.f64Store();
    f.end();
    f.inc(aPtr, rowBytes).inc(outPtr, rowBytes);
    f.inc(r, 1).get(r).get(rows).i32LtS().brIf(0);
  }
  f.end();
  f.end();
  return f;
}

/** The module of the line functions for planes `width` floats wide, with `pages` 64 KiB pages of memory. */
export function emitSsimModule(k: readonly number[], width: number, pages: number): Uint8Array {
  const rowBytes = width * 8;
  const fns = Object.entries(SSIM_LINE_FUNCTIONS).map(([name, s]) => emitLine11(name, k, s.order, s.down ? rowBytes : 8, rowBytes));
  return emitModule(fns, pages);
}
