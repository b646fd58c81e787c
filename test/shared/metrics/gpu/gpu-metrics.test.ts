// GPU metrics parity with the CPU references on seeded random inputs: PSNR, SSIM, IoU, and LPIPS
// (random full-shape weights always; the official weights and test vectors when present).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPngRgb } from '../../../../src/main/io/png';
import { loadLpipsWeights, resolveLpipsDir } from '../../../../src/main/lpips/weights';
import type { RgbImage } from '../../../../src/shared/image/image';
import { GpuMetrics } from '../../../../src/shared/metrics/gpu/gpu-metrics';
import { lpips, lpipsFeatures } from '../../../../src/shared/metrics/lpips';
import { ALEXNET_LAYERS, type LpipsWeights } from '../../../../src/shared/metrics/lpips-weights';
import { iou, maskFromCoverage, maskFromImage } from '../../../../src/shared/metrics/mask';
import { psnr } from '../../../../src/shared/metrics/psnr';
import { ssim } from '../../../../src/shared/metrics/ssim';
import { gpuDevice } from '../../../helpers/gpu';
import { loadShaderLibrary } from '../../../helpers/shaders';
import { randomImage, seeded } from '../random';
import { skipWithout } from '../../../helpers/optional';

/** He-style random weights of the real shapes, so every layer is exercised without the files. */
function randomWeights(rand: () => number): LpipsWeights {
  return {
    conv: ALEXNET_LAYERS.map((l) => {
      const fan = l.inChannels * l.kernel * l.kernel;
      const s = Math.sqrt(6 / fan);
      return { ...l, weight: Float32Array.from({ length: l.outChannels * fan }, () => (rand() * 2 - 1) * s), bias: Float32Array.from({ length: l.outChannels }, () => rand() * 0.2 - 0.05) };
    }),
    lin: ALEXNET_LAYERS.map((l) => Float32Array.from({ length: l.outChannels }, () => rand() * 0.1)),
  };
}

/** A blob on white, so masks and coverage are meaningful; `noise` perturbs it. */
function blobImage(w: number, h: number, rand: () => number, cx: number, noise: number): RgbImage {
  const img = randomImage(w, h, rand);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inside = (x - cx) ** 2 + (y - h / 2) ** 2 < (w / 4) ** 2;
      for (let c = 0; c < 3; c++) {
        const i = (y * w + x) * 3 + c;
        img.data[i] = inside ? Math.min(1, Math.max(0, 0.2 + 0.3 * c + noise * (img.data[i] - 0.5))) : 1;
      }
    }
  }
  return img;
}

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('GpuMetrics parity with the CPU references', () => {
  const device = gpuDevice as GPUDevice;
  const library = loadShaderLibrary();
  const rand = seeded(2024);
  const weights = randomWeights(rand);
  const metrics = GpuMetrics.create(device, library, weights);
  afterAll(() => metrics.destroy());

  it('batch of 3 views (odd size 70x45): psnr, ssim, iou, lpips', async () => {
    const [w, h] = [70, 45];
    const photos = [0, 1, 2].map((i) => blobImage(w, h, rand, 25 + 5 * i, 0.3));
    const renders = photos.map((p, i) => ({ ...p, data: p.data.map((v) => Math.min(1, Math.max(0, v + (rand() - 0.5) * 0.1 * i))) }));
    const coverage = renders.map((_, i) => Float32Array.from({ length: w * h }, (_, j) => ((j % w) - 30 - 3 * i) ** 2 + (Math.floor(j / w) - h / 2) ** 2 < 200 ? 0.9 : 0.1));
    const gpuPhotos = await metrics.preparePhotos(photos.map((image) => ({ image })));
    const out = await metrics.compute(renders.map((render, i) => ({ render, coverage: coverage[i], photo: gpuPhotos[i] })));
    for (const [i, m] of out.entries()) {
      if (i === 0) expect(m.psnr).toBe(Infinity);
      else expect(m.psnr).toBeCloseTo(psnr(renders[i], photos[i]), 3);
      expect(Math.abs(m.ssim - ssim(renders[i], photos[i]))).toBeLessThan(2e-4);
      expect(m.iou).toBeCloseTo(iou(maskFromCoverage(coverage[i]), maskFromImage(photos[i])), 6);
      expect(Math.abs((m.lpips ?? NaN) - lpips(renders[i], photos[i], weights))).toBeLessThan(1e-3 * Math.max(1, lpips(renders[i], photos[i], weights)));
    }
    expect(out[2].lpips).toBeGreaterThan(0);
    gpuPhotos.forEach((p) => metrics.releasePhoto(p));
  });

  it('accepts renders and coverage as GPU buffers; iou is null without coverage', async () => {
    const [w, h] = [32, 32];
    const photo = blobImage(w, h, rand, 16, 0.5);
    const render = randomImage(w, h, rand);
    const buf = device.createBuffer({ size: render.data.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buf, 0, render.data);
    const gp = await metrics.preparePhoto(photo);
    const [m] = await metrics.compute([{ render: buf, photo: gp }]);
    expect(m.iou).toBeNull();
    expect(m.psnr).toBeCloseTo(psnr(render, photo), 3);
    expect(Math.abs(m.ssim - ssim(render, photo))).toBeLessThan(2e-4);
    buf.destroy();
    metrics.releasePhoto(gp);
  });

  it('lpipsFeatures matches the CPU taps', async () => {
    const img = randomImage(40, 36, rand);
    const gpu = await metrics.lpipsFeatures(img);
    const cpu = lpipsFeatures(img, weights);
    for (const [k, f] of cpu.entries()) {
      expect([gpu[k].channels, gpu[k].height, gpu[k].width]).toEqual([f.channels, f.height, f.width]);
      let maxErr = 0;
      f.data.forEach((v, i) => (maxErr = Math.max(maxErr, Math.abs(v - gpu[k].data[i]))));
      expect(maxErr).toBeLessThan(1e-4);
    }
  });

  it('uses cached CPU features for photos and matches the computed ones', async () => {
    const [w, h] = [48, 40];
    const photo = blobImage(w, h, rand, 20, 0.4);
    const render = blobImage(w, h, rand, 26, 0.4);
    const [cached] = await metrics.preparePhotos([{ image: photo, features: lpipsFeatures(photo, weights) }]);
    const [m] = await metrics.compute([{ render, photo: cached }]);
    expect(Math.abs((m.lpips ?? NaN) - lpips(render, photo, weights))).toBeLessThan(1e-3);
    await expect(metrics.preparePhotos([{ image: randomImage(64, 64, rand), features: lpipsFeatures(photo, weights) }])).rejects.toThrow(/does not fit/);
    metrics.releasePhoto(cached);
  });

  const dir = resolveLpipsDir();
  it.skipIf(skipWithout('lpips', dir !== null && existsSync(join(dir, 'test-vectors.json'))))('reproduces the official LPIPS test vectors', async () => {
    const real = GpuMetrics.create(device, library, loadLpipsWeights({ dir: dir ?? undefined }));
    const vectors = JSON.parse(readFileSync(join(dir ?? '', 'test-vectors.json'), 'utf8')) as { pairs: { a: string; b: string; lpips: number }[] };
    for (const p of vectors.pairs) {
      const value = await real.lpips(readPngRgb(join(dir ?? '', p.b)), readPngRgb(join(dir ?? '', p.a)));
      expect(Math.abs(value - p.lpips)).toBeLessThan(1e-3);
    }
    real.destroy();
  });
});
