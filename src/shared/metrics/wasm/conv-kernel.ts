// The conv2d + bias + ReLU kernel in WebAssembly SIMD, and the weight packing it reads.
// Register-blocked direct convolution on channel-last (HWC) activations: each step of the inner
// loop loads 4M output channels' weights for one (ky, kx, c) tap as M f32x4 vectors, splats one
// input value for each of N neighbouring output pixels, and updates M x N f32x4 accumulators
// held in locals (M*N + M + 1 live v128 values; x64 has 16 vector registers).
// Layouts (f32):
//   input   [Hp][Wp][C]            zero-padded by `pad` (and on the right up to Wp), row stride inRowBytes
//   weights [OCp/4M][K][K][C][4M]  packConvWeights; one block = every tap of 4M output channels
//   bias    [OCp]
//   output  [Ho][WoPad][OCp]       WoPad = woBlocks * N, row stride outRowBytes
//   mask    [Ho][woBlocks] u8       optional (maskPtr 0 = none): 1 = every pixel of the block
//                                   sees only in-bounds inputs equal to the layer's background
// Uniform blocks (mask 1) all have the same inputs, hence bit-identical outputs: the first one
// of each channel block is computed and the others copy it (white backgrounds skip most of the
// first two layers' work). Only output rows [rowStart, rowEnd) and pixel blocks [blockStart,
// blockEnd) are written; the rest of the output is left as it is (the incremental LPIPS of
// lpips-module.ts keeps a view's previous outputs there where their inputs did not change).
// Invariant: for fixed ky the taps (kx, c) are contiguous in both the input row and the weight
// block, so the inner loop walks two pointers linearly; results equal conv2dRelu up to float32
// summation order (the reference sums in float64), and equal this kernel without the mask.
import { FunctionBuilder, I32, V128 } from '../../wasm/emitter';
import type { LpipsConv } from '../lpips-weights';

/** Emit-time constants of one conv function. */
export interface ConvShape {
  inChannels: number; // C, the input pixel stride in floats
  kernel: number; // K
  stride: number; // S
  outChannelsPadded: number; // OCp, a multiple of 4M: the output pixel stride in floats
  m: number; // f32x4 channel vectors per block (4M output channels)
  n: number; // output pixels per block
}

/** Parameters of every emitted conv function, in order (all i32; pointers and strides in bytes). */
export const CONV_PARAMS = ['inPtr', 'wPtr', 'bPtr', 'outPtr', 'rowStart', 'rowEnd', 'blockStart', 'blockEnd', 'woBlocks', 'oBlocks', 'inRowBytes', 'outRowBytes', 'maskPtr'] as const;

export function convFunctionName(s: ConvShape): string {
  return `conv_c${s.inChannels}_k${s.kernel}_s${s.stride}_o${s.outChannelsPadded}_m${s.m}_n${s.n}`;
}

export function emitConv(s: ConvShape): FunctionBuilder {
  const { inChannels: C, kernel: K, stride: S, outChannelsPadded: OCp, m: M, n: N } = s;
  if (OCp % (4 * M) !== 0) throw new Error(`conv: ${OCp} output channels are not a multiple of ${4 * M}`);
  const f = new FunctionBuilder(convFunctionName(s), CONV_PARAMS.map(() => I32), []);
  const [inPtr, wPtr, bPtr, outPtr, rowStart, rowEnd, blockStart, blockEnd, woBlocks, oBlocks, inRowBytes, outRowBytes, maskPtr] = CONV_PARAMS.map((_, i) => i);
  const [ob, oy, bx, ky, wBlock, outRow, xBase, xRow, xp, wp, end, mp, flag, refOut] = Array.from({ length: 14 }, () => f.local(I32));
  const bias = Array.from({ length: M }, () => f.local(V128));
  const w = Array.from({ length: M }, () => f.local(V128));
  const acc = Array.from({ length: M }, () => Array.from({ length: N }, () => f.local(V128)));
  const x = f.local(V128);
  const blockBytes = K * K * C * 4 * M * 4;
  const pixelStepBytes = S * C * 4; // input bytes between neighbouring output pixels

  // Nothing to write: the loops below run at least once.
  f.get(rowStart).get(rowEnd).i32LtS().get(blockStart).get(blockEnd).i32LtS().i32And().if_();
  f.i32(0).set(ob);
  f.loop(); // output-channel blocks: weights of one block stay hot in cache across all pixels
  {
    f.get(wPtr).get(ob).i32(blockBytes).i32Mul().i32Add().set(wBlock);
    for (let mi = 0; mi < M; mi++) f.get(bPtr).get(ob).i32(4 * M * 4).i32Mul().i32Add().v128Load(mi * 16).set(bias[mi]);
    f.i32(-1).set(refOut); // output address of this channel block's first uniform pixel block
    f.get(rowStart).set(oy);
    f.loop(); // output rows
    {
      f.get(outPtr).get(oy).get(outRowBytes).i32Mul().i32Add().get(ob).i32(4 * M * 4).i32Mul().i32Add().get(blockStart).i32(N * OCp * 4).i32Mul().i32Add().set(outRow);
      f.get(inPtr).get(oy).i32(S).i32Mul().get(inRowBytes).i32Mul().i32Add().get(blockStart).i32(N * pixelStepBytes).i32Mul().i32Add().set(xBase);
      f.get(maskPtr).get(oy).get(woBlocks).i32Mul().i32Add().get(blockStart).i32Add().set(mp);
      f.get(blockStart).set(bx);
      f.loop(); // blocks of N output pixels along the row
      {
        f.get(maskPtr).if_().get(mp).i32Load8U().set(flag).else_().i32(0).set(flag).end();
        f.get(flag).get(refOut).i32(0).i32GeS().i32And().if_();
        // A uniform block after the first: copy that one's output.
        for (let ni = 0; ni < N; ni++) {
          for (let mi = 0; mi < M; mi++) f.get(outRow).get(refOut).v128Load(ni * OCp * 4 + mi * 16).v128Store(ni * OCp * 4 + mi * 16);
        }
        f.else_();
        for (let mi = 0; mi < M; mi++) for (let ni = 0; ni < N; ni++) f.get(bias[mi]).set(acc[mi][ni]);
        f.get(xBase).set(xRow);
        f.get(wBlock).set(wp);
        f.i32(0).set(ky);
        f.loop(); // kernel rows
        {
          f.get(xRow).set(xp);
          f.get(xRow).i32(K * C * 4).i32Add().set(end);
          f.loop(); // (kx, c) taps: contiguous in input and weights
          {
            for (let mi = 0; mi < M; mi++) f.get(wp).v128Load(mi * 16).set(w[mi]);
            for (let ni = 0; ni < N; ni++) {
              f.get(xp).v128Load32Splat(ni * pixelStepBytes).set(x);
              for (let mi = 0; mi < M; mi++) f.get(acc[mi][ni]).get(w[mi]).get(x).f32x4Mul().f32x4Add().set(acc[mi][ni]);
            }
            f.inc(wp, 16 * M).inc(xp, 4);
            f.get(xp).get(end).i32LtU().brIf(0);
          }
          f.end();
          f.get(xRow).get(inRowBytes).i32Add().set(xRow);
          f.inc(ky, 1).get(ky).i32(K).i32LtS().brIf(0);
        }
        f.end();
        for (let ni = 0; ni < N; ni++) {
          for (let mi = 0; mi < M; mi++) f.get(outRow).v128Zero().get(acc[mi][ni]).f32x4Pmax().v128Store(ni * OCp * 4 + mi * 16);
        }
        f.get(flag).if_().get(outRow).set(refOut).end();
        f.end();
        f.inc(mp, 1);
        f.get(outRow).i32(N * OCp * 4).i32Add().set(outRow);
        f.get(xBase).i32(N * pixelStepBytes).i32Add().set(xBase);
        f.inc(bx, 1).get(bx).get(blockEnd).i32LtS().brIf(0);
      }
      f.end();
      f.inc(oy, 1).get(oy).get(rowEnd).i32LtS().brIf(0);
    }
    f.end();
    f.inc(ob, 1).get(ob).get(oBlocks).i32LtS().brIf(0);
  }
  f.end();
  f.end();
  return f;
}

/** Output channels rounded up to whole blocks of 4M. */
export function paddedChannels(outChannels: number, m: number): number {
  return Math.ceil(outChannels / (4 * m)) * 4 * m;
}

/** Torch OIHW weights -> [OCp/4M][K][K][C][4M] (zero for padded output channels), bias -> [OCp]. */
export function packConvWeights(layer: LpipsConv, m: number): { weight: Float32Array; bias: Float32Array } {
  const { outChannels: oc, inChannels: ic, kernel: k } = layer;
  const ocp = paddedChannels(oc, m);
  const lanes = 4 * m;
  const weight = new Float32Array(ocp * ic * k * k);
  for (let o = 0; o < oc; o++) {
    const ob = Math.floor(o / lanes);
    const j = o % lanes;
    for (let c = 0; c < ic; c++) {
      for (let ky = 0; ky < k; ky++) {
        for (let kx = 0; kx < k; kx++) {
          weight[((((ob * k + ky) * k + kx) * ic + c) * lanes) + j] = layer.weight[((o * ic + c) * k + ky) * k + kx];
        }
      }
    }
  }
  const bias = new Float32Array(ocp);
  bias.set(layer.bias);
  return { weight, bias };
}
