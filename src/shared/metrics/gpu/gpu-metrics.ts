// GpuMetrics: the grader's per-view PSNR, SSIM, LPIPS and silhouette IoU on a GPUDevice, in
// batches (e.g. the 8 held-out views at once) with photo-side work done once per photo.
// Inputs: renders as RgbImage or GPUBuffer [H, W, 3] f32 (COPY_SRC), optional coverage
// [H, W] f32, and photos prepared with preparePhotos (RGB, mask, cached LPIPS taps).
// Outputs: ViewMetrics per view, matching the CPU references psnr/ssim/lpips/iou.
// Invariant: calls are serialised, so staging buffers are never mapped twice at once.
import type { RgbImage } from '../../image/image';
import type { ShaderLibrary } from '../../gpu/compose';
import { MapMode } from '../../gpu/flags';
import type { FeatureMap, LpipsFeatures } from '../lpips';
import type { LpipsWeights } from '../lpips-weights';
import { maskFromImage } from '../mask';
import { psnrFromMse } from '../psnr';
import { encodePasses, GpuArena, MetricKernels } from './arena';
import { createBatchPlan, MetricSums, type BatchPlan } from './batch-plan';
import { ALEXNET_LAYERS } from '../lpips-weights';
import { LpipsNetGpu, lpipsTapSizes, type NetPlan } from './lpips-net';


/** A photo on the device: RGB, mask and (with weights) its five normalised LPIPS taps. */
export interface GpuPhoto {
  width: number;
  height: number;
  rgb: GPUBuffer; // [H, W, 3]
  mask: GPUBuffer; // [H, W] 0/1 as f32
  taps: GPUBuffer[] | null; // [C_k, h_k, w_k] per tap
  arena: GpuArena;
}

export interface PhotoInput {
  image: RgbImage;
  /** Photo silhouette; defaults to maskFromImage(image) (non-white pixels). */
  mask?: Uint8Array;
  /** Cached LPIPS taps (from lpipsFeatures or photoFeatures): uploaded instead of recomputed. */
  features?: LpipsFeatures;
}

export interface MetricsView {
  render: RgbImage | GPUBuffer; // [H, W, 3]
  /** Render coverage 1 - T_final, [H, W]; without it `iou` is null. */
  coverage?: Float32Array | GPUBuffer | null;
  photo: GpuPhoto;
}

export interface ViewMetrics {
  psnr: number; // dB, Infinity for identical images
  ssim: number;
  lpips: number | null; // null without LPIPS weights
  iou: number | null; // null without render coverage
}

export class GpuMetrics {
  private readonly batchPlans = new Map<string, BatchPlan>();
  private readonly featurePlans = new Map<string, { arena: GpuArena; input: GPUBuffer; net: NetPlan }>();
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly device: GPUDevice,
    private readonly kernels: MetricKernels,
    private readonly net: LpipsNetGpu | null,
  ) {}

  /** Compiles the pipelines and uploads the LPIPS weights (when given). */
  static create(device: GPUDevice, library: ShaderLibrary, lpipsWeights?: LpipsWeights | null): GpuMetrics {
    const kernels = new MetricKernels(device, library);
    return new GpuMetrics(device, kernels, lpipsWeights ? LpipsNetGpu.create(kernels, lpipsWeights) : null);
  }

  get hasLpips(): boolean {
    return this.net !== null;
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Uploads photos (all the same size) and computes their LPIPS taps in one batch. */
  preparePhotos(inputs: PhotoInput[]): Promise<GpuPhoto[]> {
    return this.exclusive(async () => {
      if (inputs.length === 0) return [];
      const { width, height } = inputs[0].image;
      const photos = inputs.map(({ image, mask }) => {
        if (image.width !== width || image.height !== height) throw new Error('preparePhotos: photos in one call must share a size');
        const arena = new GpuArena(this.device);
        const m = mask ?? maskFromImage(image);
        if (m.length !== width * height) throw new Error(`preparePhotos: mask has ${m.length} pixels, expected ${width * height}`);
        const photo: GpuPhoto = { width, height, rgb: arena.upload(image.data, 'photo rgb'), mask: arena.upload(Float32Array.from(m), 'photo mask'), taps: null, arena };
        return photo;
      });
      if (!this.net) return photos;
      if (inputs.every((p) => p.features)) {
        const sizes = lpipsTapSizes(height, width);
        photos.forEach((p, b) => {
          p.taps = (inputs[b].features ?? []).map((f, i) => {
            if (f.channels !== ALEXNET_LAYERS[i].outChannels || f.height !== sizes[i].height || f.width !== sizes[i].width) {
              throw new Error(`preparePhotos: cached LPIPS tap ${i} does not fit a ${width}x${height} photo`);
            }
            return p.arena.upload(f.data, `photo tap ${i}`);
          });
        });
        return photos;
      }
      const plan = this.featurePlan(inputs.length, width, height);
      const encoder = this.device.createCommandEncoder({ label: 'photo taps' });
      photos.forEach((p, b) => encoder.copyBufferToBuffer(p.rgb, 0, plan.input, b * width * height * 12, width * height * 12));
      encodePasses(encoder, plan.net.passes);
      for (const [b, p] of photos.entries()) {
        p.taps = plan.net.taps.map((t, i) => {
          const bytes = t.channels * t.height * t.width * 4;
          const own = p.arena.storage(bytes, `photo tap ${i}`);
          encoder.copyBufferToBuffer(t.buffer, b * bytes, own, 0, bytes);
          return own;
        });
      }
      this.device.queue.submit([encoder.finish()]);
      await this.device.queue.onSubmittedWorkDone().then(() => undefined);
      return photos;
    });
  }

  async preparePhoto(image: RgbImage, mask?: Uint8Array): Promise<GpuPhoto> {
    return (await this.preparePhotos([{ image, mask }]))[0];
  }

  releasePhoto(photo: GpuPhoto): void {
    photo.arena.destroy();
  }

  private featurePlan(batch: number, width: number, height: number): { arena: GpuArena; input: GPUBuffer; net: NetPlan } {
    const key = `${batch}x${width}x${height}`;
    let plan = this.featurePlans.get(key);
    if (!plan && this.net) {
      const arena = new GpuArena(this.device);
      const input = arena.storage(batch * width * height * 12, 'photo batch rgb');
      plan = { arena, input, net: this.net.plan(arena, batch, height, width, input) };
      this.featurePlans.set(key, plan);
    }
    if (!plan) throw new Error('LPIPS weights are not loaded');
    return plan;
  }

  /** Metrics of every view; all views must share one size. */
  compute(views: MetricsView[]): Promise<ViewMetrics[]> {
    return this.exclusive(async () => {
      if (views.length === 0) return [];
      const { width, height } = views[0].photo;
      const n = width * height;
      const key = `${views.length}x${width}x${height}`;
      let plan = this.batchPlans.get(key);
      if (!plan) {
        plan = createBatchPlan(this.kernels, this.net, views.length, width, height);
        this.batchPlans.set(key, plan);
      }
      const q = this.device.queue;
      const encoder = this.device.createCommandEncoder({ label: 'metrics batch' });
      for (const [b, v] of views.entries()) {
        if (v.photo.width !== width || v.photo.height !== height) throw new Error('compute: all views in a batch must share a size');
        if (isGpuBuffer(v.render)) encoder.copyBufferToBuffer(v.render, 0, plan.renders, b * n * 12, n * 12);
        else {
          if (v.render.width !== width || v.render.height !== height) throw new Error(`compute: render ${b} is ${v.render.width}x${v.render.height}, photo is ${width}x${height}`);
          q.writeBuffer(plan.renders, b * n * 12, v.render.data.buffer, v.render.data.byteOffset, n * 12);
        }
        if (v.coverage && isGpuBuffer(v.coverage)) encoder.copyBufferToBuffer(v.coverage, 0, plan.coverage, b * n * 4, n * 4);
        else q.writeBuffer(plan.coverage, b * n * 4, v.coverage ? v.coverage.buffer : new Float32Array(n).buffer, v.coverage ? v.coverage.byteOffset : 0, n * 4);
        encoder.copyBufferToBuffer(v.photo.rgb, 0, plan.photos, b * n * 12, n * 12);
        encoder.copyBufferToBuffer(v.photo.mask, 0, plan.masks, b * n * 4, n * 4);
        plan.photoTaps?.forEach((t, i) => {
          const src = v.photo.taps?.[i];
          if (!src) throw new Error('compute: photo was prepared without LPIPS taps');
          const bytes = t.channels * t.height * t.width * 4;
          encoder.copyBufferToBuffer(src, 0, t.buffer, b * bytes, bytes);
        });
      }
      encodePasses(encoder, plan.passes);
      const at = new MetricSums(views.length);
      encoder.copyBufferToBuffer(plan.sums, 0, plan.staging, 0, at.words * 4);
      q.submit([encoder.finish()]);
      const sums = await readFloats(plan.staging, at.words);
      const p = plan;
      return views.map((v, b) => ({
        psnr: psnrFromMse(sums[at.sse(b)] / (3 * n)),
        ssim: sums[at.ssim(b)] / p.ssimCount,
        lpips: p.photoTaps ? p.tapPixels.reduce((s, px, i) => s + sums[at.lpips(i, b)] / px, 0) : null,
        iou: v.coverage ? (sums[at.union(b)] === 0 ? 1 : sums[at.intersection(b)] / sums[at.union(b)]) : null,
      }));
    });
  }

  /** Reads a prepared photo's LPIPS taps back, in the CPU reference's layout. */
  photoFeatures(photo: GpuPhoto): Promise<LpipsFeatures> {
    return this.exclusive(async () => {
      if (!photo.taps) throw new Error('photo has no LPIPS taps (weights not loaded)');
      const out: FeatureMap[] = [];
      const taps = photo.taps;
      for (const [i, size] of lpipsTapSizes(photo.height, photo.width).entries()) {
        const channels = ALEXNET_LAYERS[i].outChannels;
        const count = channels * size.height * size.width;
        const arena = new GpuArena(this.device);
        const staging = arena.readback(count * 4, 'tap readback');
        const encoder = this.device.createCommandEncoder();
        encoder.copyBufferToBuffer(taps[i], 0, staging, 0, count * 4);
        this.device.queue.submit([encoder.finish()]);
        out.push({ channels, ...size, data: await readFloats(staging, count) });
        arena.destroy();
      }
      return out;
    });
  }

  /** Same signatures as the CPU references (psnr, ssim, lpips, lpipsFeatures), asynchronous. */
  async psnr(a: RgbImage, b: RgbImage): Promise<number> {
    return (await this.pair(a, b)).psnr;
  }

  async ssim(a: RgbImage, b: RgbImage): Promise<number> {
    return (await this.pair(a, b)).ssim;
  }

  async lpips(a: RgbImage, b: RgbImage): Promise<number> {
    const m = await this.pair(a, b);
    if (m.lpips === null) throw new Error('LPIPS weights are not loaded');
    return m.lpips;
  }

  async lpipsFeatures(img: RgbImage): Promise<LpipsFeatures> {
    const photo = await this.preparePhoto(img);
    try {
      return await this.photoFeatures(photo);
    } finally {
      this.releasePhoto(photo);
    }
  }

  private async pair(a: RgbImage, b: RgbImage): Promise<ViewMetrics> {
    const photo = await this.preparePhoto(b);
    try {
      return (await this.compute([{ render: a, photo }]))[0];
    } finally {
      this.releasePhoto(photo);
    }
  }

  destroy(): void {
    for (const p of this.batchPlans.values()) p.arena.destroy();
    for (const p of this.featurePlans.values()) p.arena.destroy();
    this.batchPlans.clear();
    this.featurePlans.clear();
    this.net?.destroy();
  }
}

function isGpuBuffer(x: unknown): x is GPUBuffer {
  return typeof x === 'object' && x !== null && 'mapAsync' in x && 'usage' in x;
}

async function readFloats(staging: GPUBuffer, count: number): Promise<Float32Array> {
  await staging.mapAsync(MapMode.READ);
  const out = new Float32Array(staging.getMappedRange(0, Math.ceil((count * 4) / 16) * 16).slice(0, count * 4));
  staging.unmap();
  return out;
}

