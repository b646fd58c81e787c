// The tile compositing loop (compositeTileRange of tiles.ts) as a WebAssembly kernel emitted at
// run time with the repo's emitter (issue 40 item 4, docs/PERFORMANCE.md): the same loop, the
// same float64 operations in the same order, except that exp is the module's own (expK below:
// Cody-Waite reduction by ln 2, a degree-13 Taylor polynomial in Estrin's order, 2^n from the
// exponent bits; within 2 ulp of the exact value) instead of V8's Math.exp (fdlibm's, 10-12 ns a
// call, a fifth of the JS loop). test/bench/composite.c runs this very algorithm (its exp_k is
// expK, operation for operation), so the bench's C/wasm ratio compares equal work.
// Layout (byte addresses in the module's memory, all passed as parameters): the frame's rows as
// TileFrame keeps them (xy [rows, 2], conic [rows, 3], radii int32 [rows, 2], opacity, qlim,
// color [rows, 3]), the bins' offsets and ids (uint32), the image rgb float32 [H, W, 3] and alpha
// float32 [H, W], and a scratch block of SCRATCH_BYTES (T, accR, accG, accB: 256 float64 each,
// then 16 int32 row counts). Invariant: every value is computed by the operations written out in
// the comments (JS precedence), so the image equals the C port's bit for bit
// (npm run bench -- composite-c) and the JS loop's to the exp's last bits
// (test/shared/raster/cpu/composite-wasm.test.ts).
import { emitModule, F64, FunctionBuilder, I32 } from '../../wasm/emitter';

/** Bytes of the kernel's scratch block: T, accR, accG, accB (256 float64 each), rowLive (16 int32). */
export const SCRATCH_BYTES = 4 * 256 * 8 + 16 * 4;

const LOG2E = 1.4426950408889634;
const SHIFT = 6755399441055744; // 1.5 * 2^52: x + SHIFT - SHIFT rounds x to the nearest integer (ties to even)
const LN2_HI = 6.93147180369123816490e-1; // fdlibm's split of ln 2: n * LN2_HI is exact for |n| < 2^21
const LN2_LO = 1.90821492927058770002e-10;
/** 1 / k! for k = 0 .. 13, as JS rounds the divisions (the C port's literals are these values). */
const C = Array.from({ length: 14 }, (_, k) => {
  let f = 1;
  for (let i = 2; i <= k; i++) f *= i;
  return 1 / f;
});

/**
 * The kernel's exp in JS (for the tests and the docs; the wasm and C carry the same operations):
 * 0 below -708 (where exp is below 3.3e-308), Infinity above 709.78, NaN for NaN.
 */
export function expK(x: number): number {
  if (!(x > -708)) return x !== x ? x : 0;
  if (x > 709.78) return Infinity;
  const v = x * LOG2E + SHIFT;
  const nf = v - SHIFT;
  const r = x - nf * LN2_HI - nf * LN2_LO;
  const p = estrin(r);
  const scale = new Float64Array(new BigInt64Array([BigInt(nf + 1022) << 52n]).buffer)[0];
  return p * scale * 2;
}

function estrin(r: number): number {
  const r2 = r * r;
  const r4 = r2 * r2;
  const r8 = r4 * r4;
  const q0 = C[0] + C[1] * r + (C[2] + C[3] * r) * r2;
  const q1 = C[4] + C[5] * r + (C[6] + C[7] * r) * r2;
  const q2 = C[8] + C[9] * r + (C[10] + C[11] * r) * r2;
  const q3 = C[12] + C[13] * r;
  return q0 + q1 * r4 + (q2 + q3 * r4) * r8;
}

/**
 * Emits out = expK(x) with the given f64 locals (x is read, out written; t holds 6 temporaries
 * and n one i32). The branch-free core runs for every finite x in (-708, 709.78].
 */
function emitExp(f: FunctionBuilder, x: number, out: number, t: number[], n: number): void {
  const [v, r, r2, r4, q, s] = t;
  f.block();
  // !(x > -708): x is NaN (out = x) or tiny (out = 0).
  f.get(x).f64(-708).f64Gt().i32Eqz().if_();
  f.get(x).f64(0).get(x).get(x).f64Ne().select().set(out).br(1);
  f.end();
  f.get(x).f64(709.78).f64Gt().if_();
  f.f64(Infinity).set(out).br(1);
  f.end();
  // v = x * LOG2E + SHIFT; n = its low 32 bits (the integer nearest x log2 e); nf = v - SHIFT.
  f.get(x).f64(LOG2E).f64Mul().f64(SHIFT).f64Add().tee(v);
  f.i64ReinterpretF64().i32WrapI64().set(n);
  f.get(v).f64(SHIFT).f64Sub().set(v); // v is nf from here on
  // r = x - nf * LN2_HI - nf * LN2_LO = (x - nf LN2_HI) - nf LN2_LO
  f.get(x).get(v).f64(LN2_HI).f64Mul().f64Sub().get(v).f64(LN2_LO).f64Mul().f64Sub().set(r);
  f.get(r).get(r).f64Mul().tee(r2).get(r2).f64Mul().set(r4);
  /** C[i] + C[i + 1] * r */
  const lin = (i: number): void => void f.f64(C[i]).f64(C[i + 1]).get(r).f64Mul().f64Add();
  // q0 = C0 + C1 r + (C2 + C3 r) r2 = (C0 + C1 r) + ((C2 + C3 r) r2)
  lin(0);
  lin(2);
  f.get(r2).f64Mul().f64Add().set(q);
  // q1 likewise; s = q0 + q1 r4
  lin(4);
  lin(6);
  f.get(r2).f64Mul().f64Add().get(r4).f64Mul().get(q).f64Add().set(s); // (q1 r4) + q0: IEEE addition commutes

  // q2 + q3 r4, then p = s + (q2 + q3 r4) r8 with r8 = r4 r4
  lin(8);
  lin(10);
  f.get(r2).f64Mul().f64Add();
  lin(12);
  f.get(r4).f64Mul().f64Add();
  f.get(r4).get(r4).f64Mul().f64Mul();
  f.get(s).f64Add().set(s);
  // scale = 2^(n - 1) from its bits: (n + 1022) << 52
  f.get(s).get(n).i32(1022).i32Add().i64ExtendI32S().i64(52).i64Shl().f64ReinterpretI64().f64Mul().f64(2).f64Mul().set(out);
  f.end();
}

/** The parameters of `composite`, in order (all i32; pointers are byte addresses). */
export const COMPOSITE_PARAMS = ['t0', 't1', 'tilesX', 'width', 'height', 'offsets', 'ids', 'xy', 'conic', 'radii', 'opacity', 'qlim', 'color', 'rgb', 'alpha', 'scratch'] as const;

/** `exp(x) -> f64`: expK, exported for the accuracy test. */
export function emitExpFunction(): FunctionBuilder {
  const f = new FunctionBuilder('exp', [F64], [F64]);
  const out = f.local(F64);
  const t = Array.from({ length: 6 }, () => f.local(F64));
  emitExp(f, 0, out, t, f.local(I32));
  f.get(out);
  return f;
}

/**
 * composite(t0, t1, tilesX, width, height, offsets, ids, xy, conic, radii, opacity, qlim, color,
 * rgb, alpha, scratch): compositeTileRange over tiles [t0, t1) without the overdraw count.
 */
export function emitCompositeFunction(): FunctionBuilder {
  const f = new FunctionBuilder('composite', COMPOSITE_PARAMS.map(() => I32), []);
  const P = Object.fromEntries(COMPOSITE_PARAMS.map((n, i) => [n, i])) as Record<(typeof COMPOSITE_PARAMS)[number], number>;
  const i32 = (): number => f.local(I32);
  const f64 = (): number => f.local(F64);
  const [tile, tx, x0, y0, x1, y1, live, k, kEnd, g, bx0, bx1, by0, by1, py, row, lp, lEnd, q, rl, n] = Array.from({ length: 21 }, i32);
  const [mx, my, a, b, c, o, cr, cg, cb, qs, k2, dy, disc, root, fa, fb, dx0, e, r, vis, t, alpha, next, wgt, ex, eo] = Array.from({ length: 26 }, f64);
  const et = Array.from({ length: 6 }, f64);
  const TP = 0, AR = 2048, AG = 4096, AB = 6144, RL = 8192; // scratch offsets: T, accR, accG, accB, rowLive
  const exp = (x: number, out: number): void => emitExp(f, x, out, et, n);
  /** local = a < b ? a : b (C's ternary: b when equal), for f64 locals/stack values pushed by the callbacks. */
  const pick = (pa: () => void, pb: () => void, less: boolean): void => {
    pa();
    pb();
    pa();
    pb();
    if (less) f.f64Lt();
    else f.f64Gt();
    f.select();
  };

  f.get(P.t0).get(P.t1).i32LtS().if_();
  f.get(P.t0).set(tile);
  f.loop(); // tiles
  {
    // tx = tile % tilesX; ty = (tile - tx) / tilesX; x0 = tx S; y0 = ty S
    f.get(tile).get(P.tilesX).i32RemU().tee(tx).i32(16).i32Mul().set(x0);
    f.get(tile).get(tx).i32Sub().get(P.tilesX).i32DivU().i32(16).i32Mul().set(y0);
    // x1 = min(width, x0 + S) - 1 (and y1)
    f.get(P.width).get(x0).i32(16).i32Add().tee(q).get(P.width).get(q).i32LtS().select().i32(1).i32Sub().set(x1);
    f.get(P.height).get(y0).i32(16).i32Add().tee(q).get(P.height).get(q).i32LtS().select().i32(1).i32Sub().set(y1);
    // live = (x1 - x0 + 1) (y1 - y0 + 1); rowLive[0 .. 16) = x1 - x0 + 1; T = 1, acc = 0
    f.get(x1).get(x0).i32Sub().i32(1).i32Add().tee(q).get(y1).get(y0).i32Sub().i32(1).i32Add().i32Mul().set(live);
    for (let i = 0; i < 16; i++) f.get(P.scratch).get(q).i32Store(RL + 4 * i);
    f.get(P.scratch).set(lp);
    f.get(P.scratch).i32(2048).i32Add().set(lEnd);
    f.loop();
    f.get(lp).f64(1).f64Store(TP).get(lp).f64(0).f64Store(AR).get(lp).f64(0).f64Store(AG).get(lp).f64(0).f64Store(AB);
    f.inc(lp, 8).get(lp).get(lEnd).i32LtS().brIf(0);
    f.end();
    // k over offsets[tile] .. offsets[tile + 1] while live > 0
    f.get(P.offsets).get(tile).i32(4).i32Mul().i32Add().tee(q).i32Load(0).set(k);
    f.get(q).i32Load(4).set(kEnd);
    f.block(); // gaussians done
    f.loop(); // gaussians
    {
      f.get(k).get(kEnd).i32LtS().get(live).i32(0).i32GtS().i32And().i32Eqz().brIf(1);
      f.get(P.ids).get(k).i32(4).i32Mul().i32Add().i32Load(0).set(g);
      f.get(P.xy).get(g).i32(16).i32Mul().i32Add().tee(q).f64Load(0).set(mx);
      f.get(q).f64Load(8).set(my);
      f.get(P.radii).get(g).i32(8).i32Mul().i32Add().set(q);
      // bx0 = floor(mx - rx - 0.5) > x0 ? (int) that : x0, and likewise (C's form of the JS max/min)
      const box = (m: number, off: number, sign: 1 | -1, lim: number, out: number, greater: boolean): void => {
        f.get(m).get(q).i32Load(off).f64ConvertI32S();
        if (sign < 0) f.f64Sub();
        else f.f64Add();
        f.f64(0.5).f64Sub();
        if (sign < 0) f.f64Floor();
        else f.f64Ceil();
        f.set(ex);
        f.get(ex).i32TruncSatF64S().get(lim).get(ex).get(lim).f64ConvertI32S();
        if (greater) f.f64Gt();
        else f.f64Lt();
        f.select().set(out);
      };
      box(mx, 0, -1, x0, bx0, true);
      box(mx, 0, 1, x1, bx1, false);
      box(my, 4, -1, y0, by0, true);
      box(my, 4, 1, y1, by1, false);
      f.get(P.conic).get(g).i32(24).i32Mul().i32Add().tee(q).f64Load(0).set(a);
      f.get(q).f64Load(8).set(b);
      f.get(q).f64Load(16).set(c);
      f.get(P.opacity).get(g).i32(8).i32Mul().i32Add().f64Load(0).set(o);
      f.get(P.color).get(g).i32(24).i32Mul().i32Add().tee(q).f64Load(0).set(cr);
      f.get(q).f64Load(8).set(cg);
      f.get(q).f64Load(16).set(cb);
      // qs = qlim * 1.0001 + 1e-6; k2 = exp(-a)
      f.get(P.qlim).get(g).i32(8).i32Mul().i32Add().f64Load(0).f64(1.0001).f64Mul().f64(1e-6).f64Add().set(qs);
      f.get(a).f64Neg().set(ex);
      exp(ex, k2);
      f.get(by0).set(py);
      f.get(by0).get(by1).i32LeS().if_();
      f.loop(); // rows
      {
        f.block(); // next row
        // rl = &rowLive[py - y0]; a row whose pixels all stopped is skipped
        f.get(P.scratch).get(py).get(y0).i32Sub().i32(4).i32Mul().i32Add().tee(rl).i32Load(RL).i32Eqz().brIf(0);
        // dy = py + 0.5 - my
        f.get(py).f64ConvertI32S().f64(0.5).f64Add().get(my).f64Sub().set(dy);
        // disc = b * b * dy * dy - a * (c * dy * dy - qs)
        f.get(b).get(b).f64Mul().get(dy).f64Mul().get(dy).f64Mul();
        f.get(a).get(c).get(dy).f64Mul().get(dy).f64Mul().get(qs).f64Sub().f64Mul().f64Sub().tee(disc);
        f.f64(0).f64Lt().brIf(0);
        f.get(disc).f64Sqrt().set(root);
        // fa = max(bx0, floor(mx - 0.5 + (-b * dy - root) / a) - 1); fb = min(bx1, ceil(mx - 0.5 + (-b * dy + root) / a) + 1)
        f.get(mx).f64(0.5).f64Sub().get(b).f64Neg().get(dy).f64Mul().get(root).f64Sub().get(a).f64Div().f64Add().f64Floor().f64(1).f64Sub().set(ex);
        pick(() => f.get(ex), () => f.get(bx0).f64ConvertI32S(), false);
        f.set(fa);
        f.get(mx).f64(0.5).f64Sub().get(b).f64Neg().get(dy).f64Mul().get(root).f64Add().get(a).f64Div().f64Add().f64Ceil().f64(1).f64Add().set(ex);
        pick(() => f.get(ex), () => f.get(bx1).f64ConvertI32S(), true);
        f.set(fb);
        f.get(fa).get(fb).f64Le().i32Eqz().brIf(0);
        // row = (py - y0) S - x0; lp = &T[row + xa], lEnd = &T[row + (int) fb]
        f.get(py).get(y0).i32Sub().i32(16).i32Mul().get(x0).i32Sub().set(row);
        f.get(fa).i32TruncSatF64S().tee(q).get(row).i32Add().i32(8).i32Mul().get(P.scratch).i32Add().set(lp);
        f.get(fb).i32TruncSatF64S().get(row).i32Add().i32(8).i32Mul().get(P.scratch).i32Add().set(lEnd);
        // dx0 = xa + 0.5 - mx
        f.get(q).f64ConvertI32S().f64(0.5).f64Add().get(mx).f64Sub().set(dx0);
        // e = exp(-0.5 * (a * dx0 * dx0 + 2 * b * dx0 * dy + c * dy * dy))
        f.f64(-0.5).get(a).get(dx0).f64Mul().get(dx0).f64Mul().f64(2).get(b).f64Mul().get(dx0).f64Mul().get(dy).f64Mul().f64Add();
        f.get(c).get(dy).f64Mul().get(dy).f64Mul().f64Add().f64Mul().set(ex);
        exp(ex, e);
        // r = exp(-0.5 * (a * (2 * dx0 + 1) + 2 * b * dy))
        f.f64(-0.5).get(a).f64(2).get(dx0).f64Mul().f64(1).f64Add().f64Mul().f64(2).get(b).f64Mul().get(dy).f64Mul().f64Add().f64Mul().set(ex);
        exp(ex, r);
        f.loop(); // pixels lp .. lEnd
        {
          f.block(); // next pixel
          f.get(e).set(vis);
          f.get(e).get(r).f64Mul().set(e);
          f.get(r).get(k2).f64Mul().set(r);
          f.get(lp).f64Load(TP).set(t);
          // alpha = o vis < 0.99 ? o vis : 0.99
          f.get(o).get(vis).f64Mul().tee(eo).f64(0.99).get(eo).f64(0.99).f64Lt().select().tee(alpha);
          // alpha < 1/255 || t < 0: next pixel
          f.f64(1 / 255).f64Lt().get(t).f64(0).f64Lt().i32Or().brIf(0);
          // next = t (1 - alpha)
          f.get(t).f64(1).get(alpha).f64Sub().f64Mul().tee(next).f64(1e-4).f64Le().if_();
          f.get(lp).get(t).f64Neg().f64Store(TP);
          f.inc(live, -1);
          f.get(rl).get(rl).i32Load(RL).i32(1).i32Sub().i32Store(RL);
          f.br(1);
          f.end();
          // wgt = alpha t; acc += colour wgt; T = next
          f.get(alpha).get(t).f64Mul().set(wgt);
          f.get(lp).get(lp).f64Load(AR).get(cr).get(wgt).f64Mul().f64Add().f64Store(AR);
          f.get(lp).get(lp).f64Load(AG).get(cg).get(wgt).f64Mul().f64Add().f64Store(AG);
          f.get(lp).get(lp).f64Load(AB).get(cb).get(wgt).f64Mul().f64Add().f64Store(AB);
          f.get(lp).get(next).f64Store(TP);
          f.end();
          f.inc(lp, 8).get(lp).get(lEnd).i32LeS().brIf(0);
        }
        f.end();
        f.end(); // next row
        f.inc(py, 1).get(py).get(by1).i32LeS().brIf(0);
      }
      f.end();
      f.end();
      f.inc(k, 1).br(0);
    }
    f.end();
    f.end(); // gaussians done
    // Output: rgb = acc + |T|, alpha = 1 - |T| (T < 0 marks a stopped pixel)
    f.get(y0).set(py);
    f.loop();
    {
      // lp = &T[(py - y0) S]; q = &pixel (py, x0) index; lEnd = lp + (x1 - x0) 8
      f.get(P.scratch).get(py).get(y0).i32Sub().i32(16 * 8).i32Mul().i32Add().tee(lp);
      f.get(x1).get(x0).i32Sub().i32(8).i32Mul().i32Add().set(lEnd);
      f.get(py).get(P.width).i32Mul().get(x0).i32Add().set(q);
      f.loop();
      {
        f.get(lp).f64Load(TP).f64Abs().set(t);
        f.get(P.rgb).get(q).i32(12).i32Mul().i32Add().tee(g);
        f.get(lp).f64Load(AR).get(t).f64Add().f32DemoteF64().f32Store(0);
        f.get(g).get(lp).f64Load(AG).get(t).f64Add().f32DemoteF64().f32Store(4);
        f.get(g).get(lp).f64Load(AB).get(t).f64Add().f32DemoteF64().f32Store(8);
        f.get(P.alpha).get(q).i32(4).i32Mul().i32Add().f64(1).get(t).f64Sub().f32DemoteF64().f32Store(0);
        f.inc(q, 1).inc(lp, 8).get(lp).get(lEnd).i32LeS().brIf(0);
      }
      f.end();
      f.inc(py, 1).get(py).get(y1).i32LeS().brIf(0);
    }
    f.end();
    f.inc(tile, 1).get(tile).get(P.t1).i32LtS().brIf(0);
  }
  f.end();
  f.end();
  return f;
}

/** The module: composite and exp, one memory of `pages` 64 KiB pages. */
export function emitCompositeModule(pages: number): Uint8Array {
  return emitModule([emitCompositeFunction(), emitExpFunction()], pages);
}
