// SSIM's 11-tap blurs and map sum in WebAssembly SIMD (issue 40 item 1: the fit's step): the
// separable passes of ssim-target.ts and ssimMapSum of ssim.ts, two neighbouring outputs per f64x2
// vector. Each lane computes its
// output with the same float64 operations in the same order as the JS (slide11's symmetric sum
// K5 a5 + K4 (a4 + a6) + ... + K0 (a0 + a10), or seq11's window-order sum from 0), and wasm never
// fuses a multiply into an add, so every output is bit for bit the JS one.
// Layout: float64 planes in the module's one memory, rows `width` floats apart. A line function
// (aPtr, outPtr, count, rows) writes, for each of `rows` rows (both pointers advance one row a
// row), `count` consecutive outputs out[i] = taps of a around a[i] at the function's tap stride
// (1 float: along a row; `width` floats: down the columns). aPtr is the byte address of the
// first output's centre tap; every tap read must lie in memory (the JS reads the same samples).
// Invariant: byte-equal results to the JS (test/shared/metrics/ssim-lines.test.ts).
import { emitModule, F64, FunctionBuilder, I32, V128 } from '../../wasm/emitter';

/** The sum orders of ssim-target.ts's passes. */
export type TapOrder = 'sym' | 'seq';

/** The exported line functions: along rows (symmetric), down columns (symmetric and window order). */
export const SSIM_LINE_FUNCTIONS = { hsym: { order: 'sym', down: false }, vsym: { order: 'sym', down: true }, vseq: { order: 'seq', down: true } } as const;

/**
 * One line function for 11 taps `k` at `tapBytes` apart, rows `rowBytes` apart. Both orders push
 * the same operation sequence for a vector (f64x2) or a scalar (f64) output.
 */
export function emitLine11(name: string, k: ArrayLike<number>, order: TapOrder, tapBytes: number, rowBytes: number): FunctionBuilder {
  if (k.length !== 11) throw new Error(`ssim kernels: 11 taps expected, got ${k.length}`);
  const f = new FunctionBuilder(name, [I32, I32, I32, I32], []);
  const [aPtr, outPtr, count, rows] = [0, 1, 2, 3];
  const [r, p, o, end] = [f.local(I32), f.local(I32), f.local(I32), f.local(I32)];
  // The taps as f64x2 constants (the symmetric order reads k[0..5] only).
  const used = order === 'sym' ? 6 : 11;
  const kv = Array.from({ length: used }, () => f.local(V128));
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

/** The parameters of mapsum, in order (plane pointers in bytes; rows [r0, r1)). */
export const MAPSUM_PARAMS = ['ux', 'uy', 'uxx', 'uyy', 'uxy', 'gx', 'gxx', 'gxy', 'scale', 'grad', 'r0', 'r1'] as const;

/**
 * mapsum(ux, uy, uxx, uyy, uxy, gx, gxx, gxy, scale, grad, r0, r1) -> f64: ssimMapSum of
 * metrics/ssim.ts over rows [r0, r1) and the columns [pad, width - pad) of planes `width` floats
 * wide: the sum of the SSIM map added pixel by pixel in row-major order (a vector's lanes added
 * in turn), and with grad != 0 the upstream gradients written at those pixels. Every value is
 * the JS expression's operations in its order (its precedence written out below).
 */
export function emitMapSum(width: number, pad: number, c1: number, c2: number): FunctionBuilder {
  const f = new FunctionBuilder('mapsum', MAPSUM_PARAMS.map((n) => (n === 'scale' ? F64 : I32)), [F64]);
  const [ux, uy, uxx, uyy, uxy, gx, gxx, gxy, scale, grad, r0, r1] = MAPSUM_PARAMS.map((_, i) => i);
  const [y, q, qPairs, qEnd] = [f.local(I32), f.local(I32), f.local(I32), f.local(I32)];
  const sum = f.local(F64);
  const names = ['mx', 'my', 'a1', 'a2', 'b1', 'b2', 'd', 's'] as const;
  const vl = Object.fromEntries(names.map((n) => [n, f.local(V128)])) as Record<(typeof names)[number], number>;
  const sl = Object.fromEntries(names.map((n) => [n, f.local(F64)])) as Record<(typeof names)[number], number>;
  const [vTwo, vC1, vC2, vScale, vNegScale, vScale2] = Array.from({ length: 6 }, () => f.local(V128));
  const [negScale, scale2] = [f.local(F64), f.local(F64)];
  f.f64(0).set(sum);
  f.get(scale).f64(-1).f64Mul().set(negScale); // -scale, exactly
  f.get(scale).f64(2).f64Mul().set(scale2); // scale * 2, as the JS evaluates it
  f.f64(2).f64x2Splat().set(vTwo);
  f.f64(c1).f64x2Splat().set(vC1);
  f.f64(c2).f64x2Splat().set(vC2);
  f.get(scale).f64x2Splat().set(vScale);
  f.get(negScale).f64x2Splat().set(vNegScale);
  f.get(scale2).f64x2Splat().set(vScale2);

  /** One output (a vector of two neighbouring pixels, or one pixel) at byte offset q. */
  const pixel = (simd: boolean): void => {
    const l = simd ? vl : sl;
    const ld = (plane: number): void => void (simd ? f.get(plane).get(q).i32Add().v128Load() : f.get(plane).get(q).i32Add().f64Load());
    const st = (plane: number, value: number): void => void (simd ? f.get(plane).get(q).i32Add().get(value).v128Store() : f.get(plane).get(q).i32Add().get(value).f64Store());
    const mul = (): void => void (simd ? f.f64x2Mul() : f.f64Mul());
    const add = (): void => void (simd ? f.f64x2Add() : f.f64Add());
    const sub = (): void => void (simd ? f.f64x2Sub() : f.f64Sub());
    const div = (): void => void (simd ? f.f64x2Div() : f.f64Div());
    const k = (vec: number, v: number | null, local?: number): void => void (simd ? f.get(vec) : local !== undefined ? f.get(local) : f.f64(v as number));
    ld(ux);
    f.set(l.mx);
    ld(uy);
    f.set(l.my);
    // a1 = 2 * mx * my + C1 = ((2 mx) my) + C1
    k(vTwo, 2); f.get(l.mx); mul(); f.get(l.my); mul(); k(vC1, c1); add(); f.set(l.a1);
    // a2 = 2 * (uxy - mx * my) + C2
    k(vTwo, 2); ld(uxy); f.get(l.mx).get(l.my); mul(); sub(); mul(); k(vC2, c2); add(); f.set(l.a2);
    // b1 = mx * mx + my * my + C1 = ((mx mx) + (my my)) + C1
    f.get(l.mx).get(l.mx); mul(); f.get(l.my).get(l.my); mul(); add(); k(vC1, c1); add(); f.set(l.b1);
    // b2 = uxx - mx * mx + (uyy - my * my) + C2 = ((uxx - mx mx) + (uyy - my my)) + C2
    ld(uxx); f.get(l.mx).get(l.mx); mul(); sub(); ld(uyy); f.get(l.my).get(l.my); mul(); sub(); add(); k(vC2, c2); add(); f.set(l.b2);
    // d = b1 b2; s = (a1 a2) / d
    f.get(l.b1).get(l.b2); mul(); f.set(l.d);
    f.get(l.a1).get(l.a2); mul(); f.get(l.d); div(); f.set(l.s);
    // sum += s, one pixel after the other
    if (simd) f.get(sum).get(l.s).f64x2ExtractLane(0).f64Add().get(l.s).f64x2ExtractLane(1).f64Add().set(sum);
    else f.get(sum).get(l.s).f64Add().set(sum);
    f.get(grad).if_();
    // gx = (scale * (2 * my * (a2 - a1) - 2 * mx * s * (b2 - b1))) / d
    k(vScale, null, scale);
    k(vTwo, 2); f.get(l.my); mul(); f.get(l.a2).get(l.a1); sub(); mul();
    k(vTwo, 2); f.get(l.mx); mul(); f.get(l.s); mul(); f.get(l.b2).get(l.b1); sub(); mul();
    sub(); mul(); f.get(l.d); div();
    f.set(l.a2); // a2 is dead: reuse its local for gx
    st(gx, l.a2);
    // gxx = (-scale * s) / b2
    k(vNegScale, null, negScale); f.get(l.s); mul(); f.get(l.b2); div(); f.set(l.b2);
    st(gxx, l.b2);
    // gxy = (scale * 2 * a1) / d
    k(vScale2, null, scale2); f.get(l.a1); mul(); f.get(l.d); div(); f.set(l.a1);
    st(gxy, l.a1);
    f.end();
  };

  f.get(r0).get(r1).i32LtS().if_();
  f.get(r0).set(y);
  f.loop(); // rows
  {
    f.get(y).i32(width).i32Mul().i32(pad).i32Add().i32(8).i32Mul().set(q);
    f.get(q).i32((width - 2 * pad) * 8).i32Add().set(qEnd);
    f.get(q).i32(((width - 2 * pad) & ~1) * 8).i32Add().set(qPairs);
    f.get(q).get(qPairs).i32LtS().if_();
    f.loop(); // pixel pairs
    pixel(true);
    f.inc(q, 16).get(q).get(qPairs).i32LtS().brIf(0);
    f.end();
    f.end();
    f.get(q).get(qEnd).i32LtS().if_();
    pixel(false);
    f.end();
    f.inc(y, 1).get(y).get(r1).i32LtS().brIf(0);
  }
  f.end();
  f.end();
  f.get(sum);
  return f;
}

/** The module of the line functions and mapsum for planes `width` floats wide, with `pages` 64 KiB pages of memory. */
export function emitSsimModule(k: ArrayLike<number>, width: number, pages: number, ssim: { pad: number; c1: number; c2: number }): Uint8Array {
  const rowBytes = width * 8;
  const fns = Object.entries(SSIM_LINE_FUNCTIONS).map(([name, s]) => emitLine11(name, k, s.order, s.down ? rowBytes : 8, rowBytes));
  fns.push(emitMapSum(width, ssim.pad, ssim.c1, ssim.c2));
  return emitModule(fns, pages);
}
