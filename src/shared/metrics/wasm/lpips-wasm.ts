// LPIPS (AlexNet, v0.1) on WebAssembly SIMD, single-threaded: the same features and distance as
// lpips.ts (the reference) up to float32 summation order in the convolutions. Input: LpipsWeights
// once; RgbImages and photo features per call. Output: LpipsFeatures ([C, H, W] maps, as
// lpipsFeatures) or distances. Invariant: one instance per image size, compiled and warmed on
// first use; photo taps cross into wasm memory in the module's channel-last layout.
import type { RgbImage } from '../../image/image';
import { ALEXNET_LAYERS, type LpipsWeights } from '../lpips-weights';
import type { FeatureMap, LpipsFeatures } from '../lpips';
import { emitLpipsModule, packLpipsWeights, type LpipsModulePlan } from './lpips-module';
import { instantiateWasm, type WasmMemory } from './runtime';

interface NetExports {
  memory: WasmMemory;
  forward: () => void;
  features: () => void;
  distance: () => number;
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
  private constructor(
    readonly plan: LpipsModulePlan,
    private readonly ex: NetExports,
  ) {}

  /** Compiles the module for `width` x `height`, copies the packed weights in, runs one warm-up. */
  static async create(packed: Float32Array, width: number, height: number): Promise<LpipsWasmNet> {
    const { plan, bytes } = emitLpipsModule(ALEXNET_LAYERS, height, width);
    if (packed.length !== plan.weightsFloats) throw new Error(`LPIPS wasm: packed weights hold ${packed.length} floats, expected ${plan.weightsFloats}`);
    const ex = (await instantiateWasm(bytes)) as unknown as NetExports;
    new Float32Array(ex.memory.buffer, plan.weightsPtr, plan.weightsFloats).set(packed);
    // Baseline-compiled code runs a few times slower; one pass makes the engine tier it up.
    ex.forward();
    return new LpipsWasmNet(plan, ex);
  }

  private setImage(img: RgbImage): void {
    const { width, height } = this.plan;
    if (img.width !== width || img.height !== height) throw new Error(`LPIPS wasm: image is ${img.width}x${img.height}, net is ${width}x${height}`);
    new Float32Array(this.ex.memory.buffer, this.plan.rgbPtr, width * height * 3).set(img.data);
  }

  /** Normalised taps of `img` in the module layout (a copy of the photo region). */
  featuresRegion(img: RgbImage): Float32Array {
    this.setImage(img);
    this.ex.features();
    return new Float32Array(this.ex.memory.buffer, this.plan.photoPtr, this.plan.photoFloats).slice();
  }

  features(img: RgbImage): LpipsFeatures {
    return featuresFromRegion(this.featuresRegion(img), this.plan);
  }

  /** LPIPS between `img` and a photo whose taps are given in the module layout (photoRegion). */
  distanceToRegion(img: RgbImage, photo: Float32Array): number {
    if (photo.length !== this.plan.photoFloats) throw new Error(`LPIPS wasm: photo region holds ${photo.length} floats, expected ${this.plan.photoFloats}`);
    this.setImage(img);
    new Float32Array(this.ex.memory.buffer, this.plan.photoPtr, this.plan.photoFloats).set(photo);
    return this.ex.distance();
  }

  distance(img: RgbImage, photo: LpipsFeatures): number {
    return this.distanceToRegion(img, photoRegion(photo, this.plan));
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
