// The LPIPS network for one image size as a WebAssembly module: a memory plan (where weights,
// the input image, every activation and the photo's taps live) and exported entry points whose
// pointers and sizes are baked in as constants. Input: image width/height and the layer list.
// Output: LpipsModulePlan (plain data, structured-clonable for workers) + module bytes.
// Exports: memory; forward() runs the net on the image at rgbPtr (skipping the conv work of
// all-white regions after the first, mask-kernels.ts); distance() -> f64 = forward +
// the LPIPS distance to the normalised photo taps at photoPtr; features() = forward + the
// normalised taps written at photoPtr. Invariant: padding regions are zero at instantiation
// and no export ever writes them, so padded inputs stay valid across calls.
import { emitModule, FunctionBuilder, F64 } from './emitter';
import { emitConv, packConvWeights, paddedChannels, type ConvShape } from './conv-kernel';
import { emitCopy, emitDiff, emitInput, emitNorm, emitPool } from './lpips-kernels';
import { emitConvMask, emitInputMask, emitPoolMask } from './mask-kernels';
import type { AlexLayer, LpipsWeights } from '../lpips-weights';

/** Conv register block: 2 f32x4 channel vectors x 4 pixels (8 accumulators measured fastest). */
export const CONV_M = 2;
export const CONV_N = 4;

/** One normalised tap in the photo region: [height * width][channels] float32, `offset` bytes from photoPtr. */
export interface TapPlan {
  channels: number;
  height: number;
  width: number;
  offset: number;
}

export interface LpipsModulePlan {
  width: number;
  height: number;
  pages: number; // 64 KiB pages of memory
  weightsPtr: number; // packed weights (packLpipsWeights) are copied here, once per instance
  weightsFloats: number;
  rgbPtr: number; // [H][W][3] float32 render, written before each call
  photoPtr: number; // normalised photo taps, in TapPlan order
  photoFloats: number;
  taps: TapPlan[];
  blockMasks: { ptr: number; length: number }[]; // per layer: the conv's u8 skip flags (for tests and stats)
}

interface LayerPlan {
  layer: AlexLayer;
  ocp: number; // output channels padded to the conv block
  inH: number; // unpadded input size (after the pool, if any)
  inW: number;
  hp: number; // padded input buffer [hp][wp][C]
  wp: number;
  ho: number; // conv output size
  wo: number;
  woBlocks: number;
  inPtr: number;
  outPtr: number;
  wPtr: number;
  bPtr: number;
  linPtr: number;
  inMaskPtr: number; // u8 [inH][inW] background mask of the (pooled) input; layer 0: the image's
  pixMaskPtr: number; // u8 [ho][wo] background mask of the output
  blockMaskPtr: number; // u8 [ho][woBlocks] the conv kernel's skip flags
}

const align = (n: number): number => Math.ceil(n / 16) * 16;

type LayerShape = Omit<LayerPlan, 'inPtr' | 'outPtr' | 'wPtr' | 'bPtr' | 'linPtr' | 'inMaskPtr' | 'pixMaskPtr' | 'blockMaskPtr'>;

function layerShapes(layers: readonly AlexLayer[], height: number, width: number): LayerShape[] {
  let h = height;
  let w = width;
  return layers.map((layer) => {
    if (layer.poolBefore) {
      h = Math.floor((h - 3) / 2) + 1;
      w = Math.floor((w - 3) / 2) + 1;
    }
    const { kernel: k, stride: s, pad: p } = layer;
    const ho = Math.floor((h + 2 * p - k) / s) + 1;
    const wo = Math.floor((w + 2 * p - k) / s) + 1;
    if (h < 1 || w < 1 || ho < 1 || wo < 1) throw new Error(`LPIPS wasm: a ${width}x${height} image is too small for ${layer.name}`);
    const woBlocks = Math.ceil(wo / CONV_N);
    // Columns read by the last block: (woBlocks * N - 1) * s + k; the surplus is zero padding.
    const shape = { layer, ocp: paddedChannels(layer.outChannels, CONV_M), inH: h, inW: w, hp: h + 2 * p, wp: Math.max(w + 2 * p, (woBlocks * CONV_N - 1) * s + k), ho, wo, woBlocks };
    h = ho;
    w = wo;
    return shape;
  });
}

/** Packed weights region: per layer [weights | bias | lin], each 16-byte aligned. */
export function packLpipsWeights(weights: LpipsWeights): Float32Array {
  const parts = weights.conv.flatMap((l, i) => {
    const { weight, bias } = packConvWeights(l, CONV_M);
    const lin = new Float32Array(align(l.outChannels * 4) / 4);
    lin.set(weights.lin[i]);
    return [weight, bias, lin];
  });
  const out = new Float32Array(parts.reduce((n, p) => n + align(p.length * 4) / 4, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += align(p.length * 4) / 4;
  }
  return out;
}

function layout(layers: readonly AlexLayer[], height: number, width: number): { plan: LpipsModulePlan; layers: LayerPlan[] } {
  const shapes = layerShapes(layers, height, width);
  let at = 0;
  const take = (bytes: number): number => {
    const p = at;
    at += align(bytes);
    return p;
  };
  // Weights first, in packLpipsWeights order.
  const weightParts = shapes.map((s) => ({
    wPtr: take(s.ocp * s.layer.inChannels * s.layer.kernel ** 2 * 4),
    bPtr: take(s.ocp * 4),
    linPtr: take(s.layer.outChannels * 4),
  }));
  const weightsFloats = at / 4;
  const rgbPtr = take(width * height * 3 * 4);
  const plans: LayerPlan[] = shapes.map((s, i) => ({
    ...s,
    ...weightParts[i],
    inPtr: take(s.hp * s.wp * s.layer.inChannels * 4),
    outPtr: take(s.ho * s.woBlocks * CONV_N * s.ocp * 4),
    inMaskPtr: take(s.inH * s.inW),
    pixMaskPtr: take(s.ho * s.wo),
    blockMaskPtr: take(s.ho * s.woBlocks),
  }));
  const photoPtr = at;
  const taps = plans.map((p) => ({ channels: p.layer.outChannels, height: p.ho, width: p.wo, offset: take(p.ho * p.wo * p.layer.outChannels * 4) - photoPtr }));
  const blockMasks = plans.map((p) => ({ ptr: p.blockMaskPtr, length: p.ho * p.woBlocks }));
  const plan: LpipsModulePlan = { width, height, pages: Math.ceil(at / 65536) + 1, weightsPtr: 0, weightsFloats, rgbPtr, photoPtr, photoFloats: (at - photoPtr) / 4, taps, blockMasks };
  return { plan, layers: plans };
}

/** First interior pixel of a padded input buffer, and its row stride, in bytes. */
function interior(l: LayerPlan): { ptr: number; rowBytes: number } {
  const c = l.layer.inChannels;
  return { ptr: l.inPtr + (l.layer.pad * l.wp + l.layer.pad) * c * 4, rowBytes: l.wp * c * 4 };
}

/**
 * The plan and module bytes of the network for `width` x `height` images. `skipUniform: false`
 * computes every block (the masks are still built); results are bit-identical either way.
 */
export function emitLpipsModule(
  layers: readonly AlexLayer[],
  height: number,
  width: number,
  opts: { skipUniform?: boolean } = {},
): { plan: LpipsModulePlan; bytes: Uint8Array } {
  const skip = opts.skipUniform ?? true;
  const { plan, layers: ls } = layout(layers, height, width);
  const fns: FunctionBuilder[] = [];
  const index = new Map<string, number>();
  const use = (make: () => FunctionBuilder, name: string): number => {
    let i = index.get(name);
    if (i === undefined) {
      i = fns.length;
      fns.push(make());
      index.set(name, i);
    }
    return i;
  };
  const convShape = (l: LayerPlan): ConvShape => ({ inChannels: l.layer.inChannels, kernel: l.layer.kernel, stride: l.layer.stride, outChannelsPadded: l.ocp, m: CONV_M, n: CONV_N });
  const inputFn = use(emitInput, 'input');
  const inputMaskFn = use(emitInputMask, 'mask_input');
  const poolMaskFn = use(emitPoolMask, 'mask_pool');
  const convMaskFns = ls.map((l) => {
    const { kernel: k, stride: st, pad: p } = l.layer;
    return use(() => emitConvMask(k, st, p, CONV_N), `mask_conv_${k}_${st}_${p}_${CONV_N}`);
  });
  const convFns = ls.map((l) => {
    const shape = convShape(l);
    const f = emitConv(shape);
    return use(() => f, f.name);
  });
  const outRowBytes = (l: LayerPlan): number => l.woBlocks * CONV_N * l.ocp * 4;
  // Moves layer i's output into layer i + 1's padded input (pool or copy).
  const linkFns = ls.slice(1).map((next, i) => {
    const prev = ls[i];
    const c = prev.layer.outChannels;
    return next.layer.poolBefore ? use(() => emitPool(c, prev.ocp), `pool_${c}_${prev.ocp}`) : use(() => emitCopy(c, prev.ocp), `copy_${c}_${prev.ocp}`);
  });
  const normFns = ls.map((l) => use(() => emitNorm(l.layer.outChannels, l.ocp), `norm_${l.layer.outChannels}_${l.ocp}`));
  const diffFns = ls.map((l) => use(() => emitDiff(l.layer.outChannels, l.ocp), `diff_${l.layer.outChannels}_${l.ocp}`));

  const forward = new FunctionBuilder('forward', [], []);
  const first = interior(ls[0]);
  forward.i32(plan.rgbPtr).i32(height).i32(width).i32(first.ptr).i32(first.rowBytes).call(inputFn);
  forward.i32(plan.rgbPtr).i32(height * width).i32(ls[0].inMaskPtr).call(inputMaskFn);
  ls.forEach((l, i) => {
    // Background mask of this layer's input: the image's, the pooled previous output's, or the previous output's.
    const prev = ls[i - 1];
    let inMask = l.inMaskPtr;
    if (prev && l.layer.poolBefore) forward.i32(prev.pixMaskPtr).i32(prev.wo).i32(l.inH).i32(l.inW).i32(l.inMaskPtr).call(poolMaskFn);
    else if (prev) inMask = prev.pixMaskPtr;
    forward.i32(inMask).i32(l.inH).i32(l.inW).i32(l.ho).i32(l.wo).i32(l.woBlocks).i32(l.pixMaskPtr).i32(l.blockMaskPtr).call(convMaskFns[i]);
    forward.i32(l.inPtr).i32(l.wPtr).i32(l.bPtr).i32(l.outPtr).i32(l.ho).i32(l.woBlocks).i32(l.ocp / (4 * CONV_M)).i32(l.wp * l.layer.inChannels * 4).i32(outRowBytes(l));
    forward.i32(skip ? l.blockMaskPtr : 0).call(convFns[i]);
    const next = ls[i + 1];
    if (!next) return;
    const dst = interior(next);
    forward.i32(l.outPtr).i32(next.inH).i32(next.inW).i32(outRowBytes(l)).i32(dst.ptr).i32(dst.rowBytes).call(linkFns[i]);
  });
  const forwardFn = fns.length;
  fns.push(forward);

  const features = new FunctionBuilder('features', [], []);
  features.call(forwardFn);
  ls.forEach((l, i) => features.i32(l.outPtr).i32(l.ho).i32(l.wo).i32(outRowBytes(l)).i32(plan.photoPtr + plan.taps[i].offset).call(normFns[i]));
  fns.push(features);

  const distance = new FunctionBuilder('distance', [], [F64]);
  distance.call(forwardFn);
  ls.forEach((l, i) => {
    distance.i32(l.outPtr).i32(l.ho).i32(l.wo).i32(outRowBytes(l)).i32(plan.photoPtr + plan.taps[i].offset).i32(l.linPtr).call(diffFns[i]);
    if (i > 0) distance.f64Add();
  });
  fns.push(distance);
  return { plan, bytes: emitModule(fns, plan.pages) };
}
