// Buffers and passes grading a batch of B render/photo pairs of one size: PSNR and IoU terms,
// SSIM (two blur passes), LPIPS of the renders against cached photo taps, and segmented sums
// into one results buffer read back once.
// Layouts: renders/photos [B, H, W, 3]; coverage/masks [B, H, W]; photo taps [B, C, h, w];
// sums [9B] = [B, 3] (sse, intersection, union) | [B] ssim sum | [5, B] lpips tap sums.
// Invariant: the CPU references psnr/ssim/lpips/iou define every value computed here.
import { gaussianKernel } from '../gaussian';
import { SSIM_SIGMA, SSIM_TRUNCATE } from '../ssim';
import { type ComputePass, GpuArena, MetricKernels, groups } from './arena';
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

export function createBatchPlan(kernels: MetricKernels, net: LpipsNetGpu | null, batch: number, width: number, height: number): BatchPlan {
  const k = kernels;
  const arena = new GpuArena(kernels.device);
  const n = width * height;
  const renders = arena.storage(batch * n * 12, 'renders');
  const photos = arena.storage(batch * n * 12, 'photos');
  const coverage = arena.storage(batch * n * 4, 'coverage');
  const masks = arena.storage(batch * n * 4, 'photo masks');
  const sums = arena.storage(batch * SUMS_PER_VIEW * 4, 'metric sums');
  const staging = arena.readback(batch * SUMS_PER_VIEW * 4, 'metric sums readback');
  const passes: ComputePass[] = [];

  const pixelTerms = arena.storage(batch * 3 * n * 4, 'pixel terms');
  passes.push(k.pass(arena, 'metrics_pixel.wgsl', [n, batch, 0, 0], [renders, photos, coverage, masks, pixelTerms], [groups(n), batch, 1]));
  passes.push(k.pass(arena, 'metrics_reduce.wgsl', [n, batch * 3, 0, 0], [pixelTerms, sums], [batch * 3, 1, 1]));

  const kernel = Float32Array.from(gaussianKernel(SSIM_SIGMA, SSIM_TRUNCATE));
  const radius = (kernel.length - 1) / 2;
  if (width < kernel.length || height < kernel.length) throw new Error(`SSIM needs images of at least ${kernel.length}x${kernel.length}, got ${width}x${height}`);
  const kernelBuf = arena.upload(kernel, 'ssim kernel');
  const moments4 = arena.storage(batch * 3 * n * 16, 'ssim moments x, y, x^2, y^2');
  const momentsXy = arena.storage(batch * 3 * n * 4, 'ssim moments xy');
  const interior = (width - 2 * radius) * (height - 2 * radius);
  const ssimMap = arena.storage(batch * interior * 4, 'ssim map, summed over channels');
  const ssimParams = [width, height, batch, radius];
  passes.push(k.pass(arena, 'ssim_blur_h.wgsl', ssimParams, [renders, photos, kernelBuf, moments4, momentsXy], [groups(n), batch, 1]));
  passes.push(k.pass(arena, 'ssim_map.wgsl', ssimParams, [moments4, momentsXy, kernelBuf, ssimMap], [groups(interior), batch, 1]));
  passes.push(k.pass(arena, 'metrics_reduce.wgsl', [interior, batch, batch * 3, 0], [ssimMap, sums], [batch, 1, 1]));

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
      passes.push(k.pass(arena, 'lpips_distance.wgsl', [t.channels, px, batch, 0], [t.buffer, tapsB, net.lin[i], dist], [groups(px), batch, 1]));
      passes.push(k.pass(arena, 'metrics_reduce.wgsl', [px, batch, batch * (4 + i), 0], [dist, sums], [batch, 1, 1]));
    });
  }
  return { batch, width, height, arena, renders, photos, coverage, masks, photoTaps, passes, sums, staging, pixels: n, ssimCount: 3 * interior, tapPixels };
}
