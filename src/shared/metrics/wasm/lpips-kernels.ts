// The cheap per-pixel LPIPS stages in WebAssembly, around the conv kernel: the scaling layer,
// 3x3 stride-2 max pool, copy into the next layer's zero-padded input, and per tap the channel
// normalisation (features) or the lin-weighted squared difference against a photo's features.
// Layouts (f32): images [H][W][3]; conv outputs [Ho][WoPad][OCp] (row stride in bytes passed);
// padded inputs [Hp][Wp][C] addressed at their first interior pixel; normalised taps [Ho*Wo][C].
// Invariant: scalar float64 arithmetic in the same order as lpips.ts where it fixes the value
// (the input scaling and the normalised features are bit-identical to lpipsInput and
// normaliseChannels given the same conv output).
import { F64, FunctionBuilder, I32, V128, type ValType } from '../../wasm/emitter';
import { LPIPS_EPS, LPIPS_SCALE, LPIPS_SHIFT } from '../lpips-weights';

/** `for (i = 0; i < n; i += step) body()`, n >= 1 (a do-while: callers guarantee non-empty ranges). */
function forUp(f: FunctionBuilder, i: number, n: () => void, body: () => void, step = 1): void {
  f.i32(0).set(i);
  f.loop();
  body();
  f.inc(i, step).get(i);
  n();
  f.i32LtS().brIf(0);
  f.end();
}

function params(count: number): ValType[] {
  return new Array<ValType>(count).fill(I32);
}

/** input(rgbPtr, h, w, dstPtr, dstRowBytes): dst[y][x][c] = (2 v - 1 - shift_c) / scale_c. */
export function emitInput(): FunctionBuilder {
  const f = new FunctionBuilder('input', params(5), []);
  const [rgbPtr, h, w, dstPtr, dstRowBytes] = [0, 1, 2, 3, 4];
  const [y, x, src, dst] = [f.local(I32), f.local(I32), f.local(I32), f.local(I32)];
  f.get(rgbPtr).set(src);
  forUp(f, y, () => f.get(h), () => {
    f.get(dstPtr).get(y).get(dstRowBytes).i32Mul().i32Add().set(dst);
    forUp(f, x, () => f.get(w), () => {
      for (let c = 0; c < 3; c++) {
        f.get(dst).get(src).f32Load(c * 4).f64PromoteF32().f64(2).f64Mul().f64(1).f64Sub().f64(LPIPS_SHIFT[c]).f64Sub();
        f.f64(LPIPS_SCALE[c]).f64Div().f32DemoteF64().f32Store(c * 4);
      }
      f.inc(src, 12).inc(dst, 12);
    });
  });
  return f;
}

/** Pixel loop over an [h][w] grid of a conv output; `body` sees the source pixel address in `px`. */
function overPixels(f: FunctionBuilder, h: number, w: number, srcPtr: number, srcRowBytes: number, srcPixelBytes: number, px: number, body: () => void): void {
  const [y, x] = [f.local(I32), f.local(I32)];
  forUp(f, y, () => f.get(h), () => {
    f.get(srcPtr).get(y).get(srcRowBytes).i32Mul().i32Add().set(px);
    forUp(f, x, () => f.get(w), () => {
      body();
      f.inc(px, srcPixelBytes);
    });
  });
}

/**
 * copy_C_P(srcPtr, h, w, srcRowBytes, dstPtr, dstRowBytes): the first C channels of each conv
 * output pixel (stride P floats) into a padded input (stride C floats). C % 4 == 0.
 */
export function emitCopy(channels: number, srcPixelFloats: number): FunctionBuilder {
  if (channels % 4 !== 0) throw new Error(`copy: ${channels} channels are not a multiple of 4`);
  const f = new FunctionBuilder(`copy_${channels}_${srcPixelFloats}`, params(6), []);
  const [srcPtr, h, w, srcRowBytes, dstPtr, dstRowBytes] = [0, 1, 2, 3, 4, 5];
  const [y, x, px, dst, j] = [f.local(I32), f.local(I32), f.local(I32), f.local(I32), f.local(I32)];
  forUp(f, y, () => f.get(h), () => {
    f.get(srcPtr).get(y).get(srcRowBytes).i32Mul().i32Add().set(px);
    f.get(dstPtr).get(y).get(dstRowBytes).i32Mul().i32Add().set(dst);
    forUp(f, x, () => f.get(w), () => {
      forUp(f, j, () => f.i32(channels * 4), () => {
        f.get(dst).get(j).i32Add().get(px).get(j).i32Add().v128Load().v128Store();
      }, 16);
      f.inc(px, srcPixelFloats * 4).inc(dst, channels * 4);
    });
  });
  return f;
}

/**
 * pool_C_P(srcPtr, ho, wo, srcRowBytes, dstPtr, dstRowBytes): 3x3 stride-2 max pool of a conv
 * output (pixel stride P floats) into a padded input (stride C floats); ho, wo are pooled sizes.
 * Inputs are post-ReLU (never NaN), so the pseudo-max is the max.
 */
export function emitPool(channels: number, srcPixelFloats: number): FunctionBuilder {
  if (channels % 4 !== 0) throw new Error(`pool: ${channels} channels are not a multiple of 4`);
  const f = new FunctionBuilder(`pool_${channels}_${srcPixelFloats}`, params(6), []);
  const [srcPtr, ho, wo, srcRowBytes, dstPtr, dstRowBytes] = [0, 1, 2, 3, 4, 5];
  const [y, x, px, dst, j, q] = [f.local(I32), f.local(I32), f.local(I32), f.local(I32), f.local(I32), f.local(I32)];
  const v = f.local(V128);
  const pixelBytes = srcPixelFloats * 4;
  forUp(f, y, () => f.get(ho), () => {
    f.get(srcPtr).get(y).i32(2).i32Mul().get(srcRowBytes).i32Mul().i32Add().set(px);
    f.get(dstPtr).get(y).get(dstRowBytes).i32Mul().i32Add().set(dst);
    forUp(f, x, () => f.get(wo), () => {
      forUp(f, j, () => f.i32(channels * 4), () => {
        f.get(px).get(j).i32Add().set(q);
        f.get(q).v128Load().set(v);
        for (let dy = 0; dy < 3; dy++) {
          for (let dx = 0; dx < 3; dx++) {
            if (dy === 0 && dx === 0) continue;
            f.get(v).get(q).get(srcRowBytes).i32(dy).i32Mul().i32Add().v128Load(dx * pixelBytes).f32x4Pmax().set(v);
          }
        }
        f.get(dst).get(j).i32Add().get(v).v128Store();
      }, 16);
      f.inc(px, 2 * pixelBytes).inc(dst, channels * 4);
    });
  });
  return f;
}

/** Leaves 1 / (||pixel|| + eps) of the C floats at `px` in local `inv` (float64, channel order). */
function inverseNorm(f: FunctionBuilder, channels: number, px: number, c: number, sq: number, v: number, inv: number): void {
  f.f64(0).set(sq);
  forUp(f, c, () => f.i32(channels), () => {
    f.get(px).get(c).i32(4).i32Mul().i32Add().f32Load().f64PromoteF32().tee(v).get(v).f64Mul().get(sq).f64Add().set(sq);
  });
  f.f64(1).get(sq).f64Sqrt().f64(LPIPS_EPS).f64Add().f64Div().set(inv);
}

/**
 * norm_C_P(srcPtr, ho, wo, srcRowBytes, dstPtr): normalised tap [ho*wo][C] (float32) from a
 * conv output with pixel stride P floats.
 */
export function emitNorm(channels: number, srcPixelFloats: number): FunctionBuilder {
  const f = new FunctionBuilder(`norm_${channels}_${srcPixelFloats}`, params(5), []);
  const [srcPtr, ho, wo, srcRowBytes, dstPtr] = [0, 1, 2, 3, 4];
  const [px, dst, c] = [f.local(I32), f.local(I32), f.local(I32)];
  const [sq, v, inv] = [f.local(F64), f.local(F64), f.local(F64)];
  f.get(dstPtr).set(dst);
  overPixels(f, ho, wo, srcPtr, srcRowBytes, srcPixelFloats * 4, px, () => {
    inverseNorm(f, channels, px, c, sq, v, inv);
    forUp(f, c, () => f.i32(channels), () => {
      f.get(dst).get(px).get(c).i32(4).i32Mul().i32Add().f32Load().f64PromoteF32().get(inv).f64Mul().f32DemoteF64().f32Store();
      f.inc(dst, 4);
    });
  });
  return f;
}

/**
 * diff_C_P(srcPtr, ho, wo, srcRowBytes, photoPtr, linPtr) -> f64: the LPIPS term of one tap,
 * mean over pixels of sum_c lin[c] (norm(render)[c] - photo[c])^2, photo [ho*wo][C] normalised.
 * The render's normalised value is rounded to float32 first, as normaliseChannels stores it.
 */
export function emitDiff(channels: number, srcPixelFloats: number): FunctionBuilder {
  const f = new FunctionBuilder(`diff_${channels}_${srcPixelFloats}`, params(6), [F64]);
  const [srcPtr, ho, wo, srcRowBytes, photoPtr, linPtr] = [0, 1, 2, 3, 4, 5];
  const [px, ph, c] = [f.local(I32), f.local(I32), f.local(I32)];
  const [sq, v, inv, d, total] = [f.local(F64), f.local(F64), f.local(F64), f.local(F64), f.local(F64)];
  f.get(photoPtr).set(ph);
  f.f64(0).set(total);
  overPixels(f, ho, wo, srcPtr, srcRowBytes, srcPixelFloats * 4, px, () => {
    inverseNorm(f, channels, px, c, sq, v, inv);
    forUp(f, c, () => f.i32(channels), () => {
      f.get(px).get(c).i32(4).i32Mul().i32Add().f32Load().f64PromoteF32().get(inv).f64Mul().f32DemoteF64().f64PromoteF32();
      f.get(ph).f32Load().f64PromoteF32().f64Sub().set(d);
      f.get(linPtr).get(c).i32(4).i32Mul().i32Add().f32Load().f64PromoteF32().get(d).f64Mul().get(d).f64Mul().get(total).f64Add().set(total);
      f.inc(ph, 4);
    });
  });
  f.get(total).get(ho).get(wo).i32Mul().f64ConvertI32S().f64Div();
  return f;
}
