// Uniform-region masks for the conv kernel's skip (conv-kernel.ts), in WebAssembly. A mask bit
// says "this activation equals the background's": white input pixels; a pooled pixel whose 3x3
// window is all background; a conv output whose whole window lies inside the (unpadded) input
// and is all background (zero padding differs from the background, so border windows never
// qualify). Such activations are bit-identical, because every pixel is computed by the same
// arithmetic in the same order. Layouts: masks are u8 [H][W]; block flags u8 [Ho][woBlocks]
// (1 when all N pixels of the block are background; padded tail pixels never are).
// Invariant: only decides what may be copied; a 0 bit is always safe.
import { FunctionBuilder, I32, type ValType } from '../../wasm/emitter';

function params(count: number): ValType[] {
  return new Array<ValType>(count).fill(I32);
}

/** `for (i = 0; i < n; i++) body()`, n >= 1. */
function forUp(f: FunctionBuilder, i: number, n: () => void, body: () => void): void {
  f.i32(0).set(i);
  f.loop();
  body();
  f.inc(i, 1).get(i);
  n();
  f.i32LtS().brIf(0);
  f.end();
}

/** mask_input(rgbPtr, pixels, dstPtr): 1 where the pixel is exactly white (1, 1, 1). */
export function emitInputMask(): FunctionBuilder {
  const f = new FunctionBuilder('mask_input', params(3), []);
  const [rgbPtr, pixels, dstPtr] = [0, 1, 2];
  const [i, src] = [f.local(I32), f.local(I32)];
  f.get(rgbPtr).set(src);
  forUp(f, i, () => f.get(pixels), () => {
    f.get(dstPtr).get(i).i32Add();
    f.get(src).f32Load(0).f32(1).f32Eq();
    f.get(src).f32Load(4).f32(1).f32Eq().i32And();
    f.get(src).f32Load(8).f32(1).f32Eq().i32And();
    f.i32Store8();
    f.inc(src, 12);
  });
  return f;
}

/** mask_pool(srcPtr, w, ho, wo, dstPtr): AND over each 3x3 stride-2 window of a [h][w] mask. */
export function emitPoolMask(): FunctionBuilder {
  const f = new FunctionBuilder('mask_pool', params(5), []);
  const [srcPtr, w, ho, wo, dstPtr] = [0, 1, 2, 3, 4];
  const [y, x, q, dst] = [f.local(I32), f.local(I32), f.local(I32), f.local(I32)];
  f.get(dstPtr).set(dst);
  forUp(f, y, () => f.get(ho), () => {
    forUp(f, x, () => f.get(wo), () => {
      f.get(srcPtr).get(y).i32(2).i32Mul().get(w).i32Mul().i32Add().get(x).i32(2).i32Mul().i32Add().set(q);
      f.get(dst);
      f.i32(1);
      for (let dy = 0; dy < 3; dy++) {
        for (let dx = 0; dx < 3; dx++) f.get(q).get(w).i32(dy).i32Mul().i32Add().i32Load8U(dx).i32And();
      }
      f.i32Store8();
      f.inc(dst, 1);
    });
  });
  return f;
}

/**
 * mask_conv_K_S_P_N(srcPtr, h, w, ho, wo, woBlocks, pixPtr, blockPtr): the conv output mask
 * [ho][wo] and the kernel's block flags [ho][woBlocks] from the input mask [h][w].
 */
export function emitConvMask(kernel: number, stride: number, pad: number, n: number): FunctionBuilder {
  const f = new FunctionBuilder(`mask_conv_${kernel}_${stride}_${pad}_${n}`, params(8), []);
  const [srcPtr, h, w, ho, wo, woBlocks, pixPtr, blockPtr] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [y, x, iy, ix, ky, kx, u, bx, j] = Array.from({ length: 9 }, () => f.local(I32));
  forUp(f, y, () => f.get(ho), () => {
    f.get(y).i32(stride).i32Mul().i32(pad).i32Sub().set(iy);
    forUp(f, x, () => f.get(wo), () => {
      f.get(x).i32(stride).i32Mul().i32(pad).i32Sub().set(ix);
      // In bounds: iy >= 0, ix >= 0, iy + K <= h, ix + K <= w.
      f.get(iy).i32(0).i32GeS().get(ix).i32(0).i32GeS().i32And();
      f.get(h).get(iy).i32(kernel).i32Add().i32GeS().i32And();
      f.get(w).get(ix).i32(kernel).i32Add().i32GeS().i32And().set(u);
      f.get(u).if_();
      forUp(f, ky, () => f.i32(kernel), () => {
        forUp(f, kx, () => f.i32(kernel), () => {
          f.get(u).get(srcPtr).get(iy).get(ky).i32Add().get(w).i32Mul().i32Add().get(ix).i32Add().get(kx).i32Add().i32Load8U().i32And().set(u);
        });
      });
      f.end();
      f.get(pixPtr).get(y).get(wo).i32Mul().i32Add().get(x).i32Add().get(u).i32Store8();
    });
    forUp(f, bx, () => f.get(woBlocks), () => {
      f.i32(1).set(u);
      forUp(f, j, () => f.i32(n), () => {
        f.get(bx).i32(n).i32Mul().get(j).i32Add().set(x);
        f.get(x).get(wo).i32LtS().if_();
        f.get(u).get(pixPtr).get(y).get(wo).i32Mul().i32Add().get(x).i32Add().i32Load8U().i32And().set(u);
        f.else_().i32(0).set(u).end();
      });
      f.get(blockPtr).get(y).get(woBlocks).i32Mul().i32Add().get(bx).i32Add().get(u).i32Store8();
    });
  });
  return f;
}
