// Buffers and passes grading a batch of B render/photo pairs of one size: PSNR and IoU terms,
// SSIM (two blur passes), LPIPS of the renders against cached photo taps, and segmented sums
// into one results buffer read back once.
// Layouts: renders/photos [B, H, W, 3]; coverage/masks [B, H, W]; photo taps [B, C, h, w];
// sums [9B], named by MetricSums: [B, 3] (sse, intersection, union) | [B] ssim sum | [5, B]
// lpips tap sums. Invariant: the CPU references psnr/ssim/lpips/iou define every value here.
import { gaussianKernel } from '../gaussian';
import { SSIM_SIGMA, SSIM_TRUNCATE } from '../ssim';
import { type ComputePass, GpuArena, MetricKernels, groups } from './arena';
import { METRIC_KERNELS as K } from './kernels';
import type { LpipsNetGpu, TapBuffer } from './lpips-net';
import { lpipsTapSizes } from './lpips-net';

export interface BatchPlan {
  batch: number;
  width: number;
  height: number;
  arena: GpuArena;
  renders: GPUBuffer;
  photos: GPUBuffer;
  coverage: GPUBuffer;
  masks: GPUBuffer;
  photoTaps: TapBuffer[] | null; // filled per batch from each photo's cached taps
  passes: ComputePass[];
  sums: GPUBuffer;
  staging: GPUBuffer;
  /** Divisors turning sums into means: pixels N, SSIM interior count 3 * cw * ch, tap pixels. */
  pixels: number;
  ssimCount: number;
  tapPixels: number[];
}

export const SUMS_PER_VIEW = 9;

/** Where each view's sums live in the [9B] results buffer (word indices), by name. */
export class MetricSums {
  constructor(readonly batch: number) {}

  /** Start of the [B, 3] pixel-term block: (sse, intersection, union) per view. */
  get pixelStart(): number {
    return 0;
  }
  sse(b: number): number {
    return this.pixelStart + b * 3;
  }
  intersection(b: number): number {
    return this.pixelStart + b * 3 + 1;
  }
  union(b: number): number {
    return this.pixelStart + b * 3 + 2;
  }
  /** Start of the [B] SSIM block. */
  get ssimStart(): number {
    return 3 * this.batch;
  }
  ssim(b: number): number {
    return this.ssimStart + b;
  }
  /** Start of the [B] block of LPIPS tap `tap` (0..4). */
  lpipsStart(tap: number): number {
    return (4 + tap) * this.batch;
  }
  lpips(tap: number, b: number): number {
    return this.lpipsStart(tap) + b;
  }
  get words(): number {
    return SUMS_PER_VIEW * this.batch;
  }
}

export function createBatchPlan(kernels: MetricKernels, net: LpipsNetGpu | null, batch: number, width: number, height: number): BatchPlan {
  const k = kernels;
  const arena = new GpuArena(kernels.device);
  const n = width * height;
  const renders = arena.storage(batch * n * 12, 'renders');
  const photos = arena.storage(batch * n * 12, 'photos');
  const coverage = arena.storage(batch * n * 4, 'coverage');
  const masks = arena.storage(batch * n * 4, 'photo masks');
  const at = new MetricSums(batch);
  const sums = arena.storage(at.words * 4, 'metric sums');
  const staging = arena.readback(at.words * 4, 'metric sums readback');
  const passes: ComputePass[] = [];

  const pixelTerms = arena.storage(batch * 3 * n * 4, 'pixel terms');
  passes.push(k.pass(arena, K.pixel, { pixels: n, batch }, { render: renders, photo: photos, coverage, mask: masks, output: pixelTerms }, [groups(n), batch, 1]));
  passes.push(k.pass(arena, K.reduce, { length: n, segments: batch * 3, out_offset: at.pixelStart }, { values: pixelTerms, sums }, [batch * 3, 1, 1]));

  const kernel = Float32Array.from(gaussianKernel(SSIM_SIGMA, SSIM_TRUNCATE));
  const radius = (kernel.length - 1) / 2;
  if (width < kernel.length || height < kernel.length) throw new Error(`SSIM needs images of at least ${kernel.length}x${kernel.length}, got ${width}x${height}`);
  const kernelBuf = arena.upload(kernel, 'ssim kernel');
  const moments4 = arena.storage(batch * 3 * n * 16, 'ssim moments x, y, x^2, y^2');
  const momentsXy = arena.storage(batch * 3 * n * 4, 'ssim moments xy');
  const interior = (width - 2 * radius) * (height - 2 * radius);
  const ssimMap = arena.storage(batch * interior * 4, 'ssim map, summed over channels');
  const ssimParams = { width, height, batch, radius };
  passes.push(k.pass(arena, K.ssimBlur, ssimParams, { render: renders, photo: photos, kernel: kernelBuf, moments4, moments_xy: momentsXy }, [groups(n), batch, 1]));
  passes.push(k.pass(arena, K.ssimMap, ssimParams, { moments4, moments_xy: momentsXy, kernel: kernelBuf, output: ssimMap }, [groups(interior), batch, 1]));
  passes.push(k.pass(arena, K.reduce, { length: interior, segments: batch, out_offset: at.ssimStart }, { values: ssimMap, sums }, [batch, 1, 1]));

  let photoTaps: TapBuffer[] | null = null;
  let tapPixels: number[] = [];
  if (net) {
    const plan = net.plan(arena, batch, height, width, renders);
    passes.push(...plan.passes);
    photoTaps = plan.taps.map((t, i) => ({ ...t, buffer: arena.storage(t.buffer.size, `photo tap ${i}`) }));
    tapPixels = lpipsTapSizes(height, width).map((s) => s.height * s.width);
    plan.taps.forEach((t, i) => {
      const px = tapPixels[i];
      const dist = arena.storage(batch * px * 4, `lpips tap ${i} distances`);
      const tapsB = photoTaps?.[i].buffer ?? t.buffer;
      passes.push(k.pass(arena, K.lpipsDistance, { channels: t.channels, pixels: px, batch }, { a: t.buffer, b: tapsB, lin: net.lin[i], output: dist }, [groups(px), batch, 1]));
      passes.push(k.pass(arena, K.reduce, { length: px, segments: batch, out_offset: at.lpipsStart(i) }, { values: dist, sums }, [batch, 1, 1]));
    });
  }
  return { batch, width, height, arena, renders, photos, coverage, masks, photoTaps, passes, sums, staging, pixels: n, ssimCount: 3 * interior, tapPixels };
}
