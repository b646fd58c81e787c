// LPIPS (AlexNet, v0.1) on WebAssembly SIMD, single-threaded: the same features and distance as
// lpips.ts (the reference) up to float32 summation order in the convolutions. Input: LpipsWeights
// once; RgbImages and photo features per call. Output: LpipsFeatures ([C, H, W] maps, as
// lpipsFeatures) or distances. Invariant: one instance per image size, compiled and warmed on
// first use; photo taps cross into wasm memory in the module's channel-last layout; plain calls
// run on the scratch slot with every block computed, incremental ones (distanceInSlot) on a
// numbered slot give bit-identical distances.
import type { RgbImage } from '../../image/image';
import { ALEXNET_LAYERS, type LpipsWeights } from '../lpips-weights';
import type { FeatureMap, LpipsFeatures } from '../lpips';
import { changedBox, dirtyRects, emitLpipsModule, packLpipsWeights, type LpipsModulePlan } from './lpips-module';
import { instantiateWasm, type WasmMemory } from '../../wasm/runtime';

interface NetExports {
  memory: WasmMemory;
  forward: (base: number) => void;
  features: (base: number) => void;
  distance: (base: number) => number;
}

/** Throws one line unless `features` has exactly the plan's taps (image size and channels). */
export function assertTapsMatch(features: LpipsFeatures, plan: LpipsModulePlan): void {
  plan.taps.forEach((t, k) => {
    const f = features[k];
    if (!f || f.channels !== t.channels || f.height !== t.height || f.width !== t.width) {
      throw new Error(`LPIPS wasm: photo tap ${k} is ${f ? `${f.channels}x${f.height}x${f.width}` : 'missing'}, expected ${t.channels}x${t.height}x${t.width}`);
    }
  });
  if (features.length !== plan.taps.length) throw new Error(`LPIPS wasm: photo has ${features.length} taps, expected ${plan.taps.length}`);
}

/** Photo features -> the module's photo region: per tap [H*W][C] float32 at its offset. */
export function photoRegion(features: LpipsFeatures, plan: LpipsModulePlan): Float32Array {
  assertTapsMatch(features, plan);
  const out = new Float32Array(plan.photoFloats);
  plan.taps.forEach((t, k) => {
    const f = features[k];
    const n = t.height * t.width;
    const base = t.offset / 4;
    for (let c = 0; c < t.channels; c++) {
      for (let j = 0; j < n; j++) out[base + j * t.channels + c] = f.data[c * n + j];
    }
  });
  return out;
}

/** The module's photo region -> LpipsFeatures ([C, H, W] maps). */
export function featuresFromRegion(region: Float32Array, plan: LpipsModulePlan): LpipsFeatures {
  return plan.taps.map((t): FeatureMap => {
    const n = t.height * t.width;
    const base = t.offset / 4;
    const data = new Float32Array(t.channels * n);
    for (let c = 0; c < t.channels; c++) {
      for (let j = 0; j < n; j++) data[c * n + j] = region[base + j * t.channels + c];
    }
    return { channels: t.channels, height: t.height, width: t.width, data };
  });
}

/** The compiled network for one image size, weights loaded. */
export class LpipsWasmNet {
  /** Slots holding a previous image (incremental calls may reuse their activations). */
  private readonly filled: boolean[];

  private constructor(
    readonly plan: LpipsModulePlan,
    private readonly ex: NetExports,
  ) {
    this.filled = new Array<boolean>(plan.slots).fill(false);
  }

  /** Compiles the module for `width` x `height`, copies the packed weights in, runs one warm-up. */
  static async create(packed: Float32Array, width: number, height: number): Promise<LpipsWasmNet> {
    const { plan, bytes } = emitLpipsModule(ALEXNET_LAYERS, height, width);
    if (packed.length !== plan.weightsFloats) throw new Error(`LPIPS wasm: packed weights hold ${packed.length} floats, expected ${plan.weightsFloats}`);
    const ex = (await instantiateWasm(bytes)) as unknown as NetExports;
    new Float32Array(ex.memory.buffer, plan.weightsPtr, plan.weightsFloats).set(packed);
    const net = new LpipsWasmNet(plan, ex);
    // Baseline-compiled code runs a few times slower; one pass makes the engine tier it up.
    ex.forward(net.scratch());
    return net;
  }

  /** The scratch slot's base with every conv block to compute (plain, non-incremental calls). */
  private scratch(): number {
    const slot = this.plan.slots - 1;
    this.filled[slot] = false;
    this.setRects(dirtyRects(this.plan, 'all'));
    return slot * this.plan.slotBytes;
  }

  private setRects(rects: Int32Array): void {
    new Int32Array(this.ex.memory.buffer, this.plan.rectsPtr, rects.length).set(rects);
  }

  private rgbView(base: number): Float32Array {
    const { width, height, rgbPtr } = this.plan;
    return new Float32Array(this.ex.memory.buffer, rgbPtr + base, width * height * 3);
  }

  private setImage(img: RgbImage, base: number): void {
    const { width, height } = this.plan;
    if (img.width !== width || img.height !== height) throw new Error(`LPIPS wasm: image is ${img.width}x${img.height}, net is ${width}x${height}`);
    this.rgbView(base).set(img.data);
  }

  private setPhoto(photo: Float32Array): void {
    if (photo.length !== this.plan.photoFloats) throw new Error(`LPIPS wasm: photo region holds ${photo.length} floats, expected ${this.plan.photoFloats}`);
    new Float32Array(this.ex.memory.buffer, this.plan.photoPtr, this.plan.photoFloats).set(photo);
  }

  /** Normalised taps of `img` in the module layout (a copy of the photo region). */
  featuresRegion(img: RgbImage): Float32Array {
    const base = this.scratch();
    this.setImage(img, base);
    this.ex.features(base);
    return new Float32Array(this.ex.memory.buffer, this.plan.photoPtr, this.plan.photoFloats).slice();
  }

  features(img: RgbImage): LpipsFeatures {
    return featuresFromRegion(this.featuresRegion(img), this.plan);
  }

  /** LPIPS between `img` and a photo whose taps are given in the module layout (photoRegion). */
  distanceToRegion(img: RgbImage, photo: Float32Array): number {
    this.setPhoto(photo);
    const base = this.scratch();
    this.setImage(img, base);
    return this.ex.distance(base);
  }

  distance(img: RgbImage, photo: LpipsFeatures): number {
    return this.distanceToRegion(img, photoRegion(photo, this.plan));
  }

  /**
   * The same distance computed on `slot` (0 .. slots - 2), reusing the activations of the image
   * the slot held before where they cannot have changed; `fresh` (or a slot's first use) computes
   * everything. Callers give each view its own slot.
   */
  distanceInSlot(img: RgbImage, photo: Float32Array, slot: number, fresh = false): number {
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.plan.slots - 1) throw new Error(`LPIPS wasm: slot ${slot} is not one of 0..${this.plan.slots - 2}`);
    this.setPhoto(photo);
    const base = slot * this.plan.slotBytes;
    const box = this.filled[slot] && !fresh ? changedBox(this.rgbView(base), img.data, img.width, img.height) : 'all';
    this.filled[slot] = false; // until the call below has finished
    this.setImage(img, base);
    this.setRects(dirtyRects(this.plan, box));
    const d = this.ex.distance(base);
    this.filled[slot] = true;
    return d;
  }
}

/** LPIPS on wasm for any image size: one LpipsWasmNet per size, created on first use. */
export class LpipsWasm {
  private readonly nets = new Map<string, Promise<LpipsWasmNet>>();
  readonly packed: Float32Array;

  constructor(weights: LpipsWeights) {
    this.packed = packLpipsWeights(weights);
  }

  net(width: number, height: number): Promise<LpipsWasmNet> {
    const key = `${width}x${height}`;
    let net = this.nets.get(key);
    if (!net) {
      net = LpipsWasmNet.create(this.packed, width, height);
      this.nets.set(key, net);
    }
    return net;
  }

  async features(img: RgbImage): Promise<LpipsFeatures> {
    return (await this.net(img.width, img.height)).features(img);
  }

  async distance(img: RgbImage, photo: LpipsFeatures): Promise<number> {
    return (await this.net(img.width, img.height)).distance(img, photo);
  }
}
