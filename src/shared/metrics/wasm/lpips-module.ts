// The LPIPS network for one image size as a WebAssembly module: a memory plan (where weights,
// the photo's taps and each slot's image and activations live) and exported entry points whose
// pointers and sizes are baked in as constants, offset by a slot's base. Input: image
// width/height and the layer list. Output: LpipsModulePlan (plain data, structured-clonable for
// workers) + module bytes.
// Exports: memory; forward(base) runs the net on the image of the slot at `base` (skipping the
// conv work of all-white regions after the first, mask-kernels.ts, and every conv block outside
// that layer's rect at rectsPtr); distance(base) -> f64 = forward + the LPIPS distance to the
// normalised photo taps at photoPtr; features(base) = forward + the normalised taps written at
// photoPtr.
// Incremental LPIPS (dirtyRects): a slot keeps its last image's activations, so when a view's
// new render differs from its last one only inside a box, only the conv blocks whose inputs lie
// in that box's receptive field are computed; the others keep their (identical) previous values.
// Invariants: padding regions are zero at instantiation and no export ever writes them, so
// padded inputs stay valid across calls; a conv output outside its rect is whatever the same
// slot's previous call wrote there, so rects must cover every change since that call (the full
// rects on a slot's first use).
import { emitModule, FunctionBuilder, F64, I32 } from '../../wasm/emitter';
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

/** Where a layer's conv reads from and writes to, for dirtyRects (output size and block width). */
export interface ConvGeometry {
  poolBefore: boolean;
  kernel: number;
  stride: number;
  pad: number;
  inH: number; // the conv's unpadded input (after the pool, if any)
  inW: number;
  ho: number;
  wo: number;
  woBlocks: number;
}

export interface LpipsModulePlan {
  width: number;
  height: number;
  pages: number; // 64 KiB pages of memory
  weightsPtr: number; // packed weights (packLpipsWeights) are copied here, once per instance
  weightsFloats: number;
  rgbPtr: number; // slot 0's [H][W][3] float32 render, written before each call (slot k: + k * slotBytes)
  photoPtr: number; // normalised photo taps, in TapPlan order (one region, shared by the slots)
  photoFloats: number;
  rectsPtr: number; // i32 [layers][rowStart, rowEnd, blockStart, blockEnd], read by forward()
  slots: number; // slots of image + activations; a slot's base is k * slotBytes
  slotBytes: number;
  geometry: ConvGeometry[];
  taps: TapPlan[];
  blockMasks: { ptr: number; length: number }[]; // per layer: slot 0's conv u8 skip flags (for tests and stats)
}

/** Slots per module: one per view a worker holds (a grade has 8 views) plus a scratch slot. */
export const LPIPS_SLOTS = 9;

/** An inclusive pixel box of the image, or null for none. */
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The box of pixels where `next` differs from `prev` ([H][W][3] floats), null when none do. */
export function changedBox(prev: ArrayLike<number>, next: ArrayLike<number>, width: number, height: number): PixelBox | null {
  let x0 = width;
  let x1 = -1;
  let y0 = height;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width * 3;
    let first = -1;
    let last = -1;
    for (let i = 0; i < width * 3; i++) {
      if (prev[row + i] !== next[row + i]) {
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first < 0) continue;
    if (y0 === height) y0 = y;
    y1 = y;
    x0 = Math.min(x0, Math.floor(first / 3));
    x1 = Math.max(x1, Math.floor(last / 3));
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

/**
 * The conv rects (per layer: rows [rowStart, rowEnd), pixel blocks [blockStart, blockEnd)) that
 * must be recomputed when the image changed inside `box` ('all': every block, a slot's first use;
 * null: nothing changed): each layer's output pixels whose window (after the pool) meets the
 * previous layer's changed box, rounded out to whole blocks.
 */
export function dirtyRects(plan: Pick<LpipsModulePlan, 'geometry'>, box: PixelBox | null | 'all'): Int32Array {
  const rects = new Int32Array(plan.geometry.length * 4);
  let b = box;
  plan.geometry.forEach((g, i) => {
    if (b === 'all') {
      rects.set([0, g.ho, 0, g.woBlocks], i * 4);
      return;
    }
    if (b === null) return;
    if (g.poolBefore) b = { x0: Math.ceil((b.x0 - 2) / 2), y0: Math.ceil((b.y0 - 2) / 2), x1: Math.min(g.inW - 1, Math.floor(b.x1 / 2)), y1: Math.min(g.inH - 1, Math.floor(b.y1 / 2)) };
    const lo = (v: number): number => Math.max(0, Math.ceil((v + g.pad - g.kernel + 1) / g.stride));
    const next = { x0: lo(b.x0), y0: lo(b.y0), x1: Math.min(g.wo - 1, Math.floor((b.x1 + g.pad) / g.stride)), y1: Math.min(g.ho - 1, Math.floor((b.y1 + g.pad) / g.stride)) };
    if (next.x0 > next.x1 || next.y0 > next.y1) {
      b = null;
      return;
    }
    rects.set([next.y0, next.y1 + 1, Math.floor(next.x0 / CONV_N), Math.floor(next.x1 / CONV_N) + 1], i * 4);
    b = next;
  });
  return rects;
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

function layout(layers: readonly AlexLayer[], height: number, width: number, slots: number): { plan: LpipsModulePlan; layers: LayerPlan[] } {
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
  const photoPtr = at;
  const taps = shapes.map((p) => ({ channels: p.layer.outChannels, height: p.ho, width: p.wo, offset: take(p.ho * p.wo * p.layer.outChannels * 4) - photoPtr }));
  const photoFloats = (at - photoPtr) / 4;
  const rectsPtr = take(shapes.length * 16);
  // Slot 0; slot k is the same layout k * slotBytes further on (a multiple of 16).
  const slot0 = at;
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
  const slotBytes = at - slot0;
  at += slotBytes * (slots - 1);
  const blockMasks = plans.map((p) => ({ ptr: p.blockMaskPtr, length: p.ho * p.woBlocks }));
  const geometry = plans.map((p): ConvGeometry => ({ poolBefore: p.layer.poolBefore, kernel: p.layer.kernel, stride: p.layer.stride, pad: p.layer.pad, inH: p.inH, inW: p.inW, ho: p.ho, wo: p.wo, woBlocks: p.woBlocks }));
  const plan: LpipsModulePlan = { width, height, pages: Math.ceil(at / 65536) + 1, weightsPtr: 0, weightsFloats, rgbPtr, photoPtr, photoFloats, rectsPtr, slots, slotBytes, geometry, taps, blockMasks };
  return { plan, layers: plans };
}

/** First interior pixel of a padded input buffer, and its row stride, in bytes. */
function interior(l: LayerPlan): { ptr: number; rowBytes: number } {
  const c = l.layer.inChannels;
  return { ptr: l.inPtr + (l.layer.pad * l.wp + l.layer.pad) * c * 4, rowBytes: l.wp * c * 4 };
}

/**
 * The plan and module bytes of the network for `width` x `height` images. `skipUniform: false`
 * computes every uniform block (the masks are still built); results are bit-identical either way.
 */
export function emitLpipsModule(
  layers: readonly AlexLayer[],
  height: number,
  width: number,
  opts: { skipUniform?: boolean; slots?: number } = {},
): { plan: LpipsModulePlan; bytes: Uint8Array } {
  const skip = opts.skipUniform ?? true;
  const { plan, layers: ls } = layout(layers, height, width, opts.slots ?? LPIPS_SLOTS);
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

  // Every export takes the slot's base (bytes) as its one parameter, local 0.
  const forward = new FunctionBuilder('forward', [I32], []);
  const at = (f: FunctionBuilder, ptr: number): FunctionBuilder => f.i32(ptr).get(0).i32Add();
  const first = interior(ls[0]);
  at(forward, plan.rgbPtr).i32(height).i32(width);
  at(forward, first.ptr).i32(first.rowBytes).call(inputFn);
  at(forward, plan.rgbPtr).i32(height * width);
  at(forward, ls[0].inMaskPtr).call(inputMaskFn);
  ls.forEach((l, i) => {
    // Background mask of this layer's input: the image's, the pooled previous output's, or the previous output's.
    const prev = ls[i - 1];
    let inMask = l.inMaskPtr;
    if (prev && l.layer.poolBefore) {
      at(forward, prev.pixMaskPtr).i32(prev.wo).i32(l.inH).i32(l.inW);
      at(forward, l.inMaskPtr).call(poolMaskFn);
    } else if (prev) inMask = prev.pixMaskPtr;
    at(forward, inMask).i32(l.inH).i32(l.inW).i32(l.ho).i32(l.wo).i32(l.woBlocks);
    at(forward, l.pixMaskPtr);
    at(forward, l.blockMaskPtr).call(convMaskFns[i]);
    at(forward, l.inPtr).i32(l.wPtr).i32(l.bPtr);
    at(forward, l.outPtr);
    for (let k = 0; k < 4; k++) forward.i32(plan.rectsPtr + i * 16 + k * 4).i32Load();
    forward.i32(l.woBlocks).i32(l.ocp / (4 * CONV_M)).i32(l.wp * l.layer.inChannels * 4).i32(outRowBytes(l));
    if (skip) at(forward, l.blockMaskPtr);
    else forward.i32(0);
    forward.call(convFns[i]);
    const next = ls[i + 1];
    if (!next) return;
    const dst = interior(next);
    at(forward, l.outPtr).i32(next.inH).i32(next.inW).i32(outRowBytes(l));
    at(forward, dst.ptr).i32(dst.rowBytes).call(linkFns[i]);
  });
  const forwardFn = fns.length;
  fns.push(forward);

  const features = new FunctionBuilder('features', [I32], []);
  features.get(0).call(forwardFn);
  ls.forEach((l, i) => at(features, l.outPtr).i32(l.ho).i32(l.wo).i32(outRowBytes(l)).i32(plan.photoPtr + plan.taps[i].offset).call(normFns[i]));
  fns.push(features);

  const distance = new FunctionBuilder('distance', [I32], [F64]);
  distance.get(0).call(forwardFn);
  ls.forEach((l, i) => {
    at(distance, l.outPtr).i32(l.ho).i32(l.wo).i32(outRowBytes(l)).i32(plan.photoPtr + plan.taps[i].offset).i32(l.linPtr).call(diffFns[i]);
    if (i > 0) distance.f64Add();
  });
  fns.push(distance);
  return { plan, bytes: emitModule(fns, plan.pages) };
}
