// SSIM against numpy/scipy test vectors (skimage's formula, test/fixtures/metrics), its
// gradient against central finite differences, and the blur adjoint identity.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPngRgb } from '../../../src/main/io/png';
import type { RgbImage } from '../../../src/shared/image/image';
import { blur, blurAdjoint, gaussianKernel, reflectIndex } from '../../../src/shared/metrics/gaussian';
import { psnr } from '../../../src/shared/metrics/psnr';
import { ssim, ssimWithGrad } from '../../../src/shared/metrics/ssim';
import { randomImage, seeded } from './random';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'metrics');
interface Vector { a: string; b: string; ssim: number; psnr: number | 'inf' }
const vectors = (JSON.parse(readFileSync(join(FIXTURES, 'ssim-vectors.json'), 'utf8')) as { pairs: Vector[] }).pairs;

describe('ssim, test vectors', () => {
  it.each(vectors)('$a vs $b', (v) => {
    const a = readPngRgb(join(FIXTURES, v.a));
    const b = readPngRgb(join(FIXTURES, v.b));
    expect(Math.abs(ssim(a, b) - v.ssim)).toBeLessThan(1e-4);
    expect(psnr(a, b)).toBeCloseTo(v.psnr === 'inf' ? Infinity : v.psnr, 4);
  });

  it('is symmetric and below 1 for different images', () => {
    const a = randomImage(20, 16, seeded(1));
    const b = randomImage(20, 16, seeded(2));
    expect(ssim(a, b)).toBeCloseTo(ssim(b, a), 12);
    expect(ssim(a, b)).toBeLessThan(0.5);
  });

  it('rejects images smaller than the window and mismatched sizes', () => {
    expect(() => ssim(randomImage(10, 20, seeded(1)), randomImage(10, 20, seeded(2)))).toThrow(/at least 11x11/);
    expect(() => ssim(randomImage(12, 12, seeded(1)), randomImage(13, 12, seeded(2)))).toThrow(/sizes differ/);
  });
});

describe('gaussian blur', () => {
  it('uses scipy reflect indexing, also beyond one period', () => {
    expect([-1, -2, 0, 4, 5, 6, 10, -6].map((i) => reflectIndex(i, 5))).toEqual([0, 1, 0, 4, 4, 3, 0, 4]);
  });

  it('has an exact adjoint', () => {
    const rand = seeded(3);
    const [h, w] = [13, 17];
    const x = Float64Array.from({ length: h * w }, rand);
    const g = Float64Array.from({ length: h * w }, rand);
    const k = gaussianKernel(1.5, 3.5);
    const dot = (p: Float64Array, q: Float64Array) => p.reduce((s, v, i) => s + v * q[i], 0);
    expect(dot(blur(x, h, w, k), g)).toBeCloseTo(dot(x, blurAdjoint(g, h, w, k)), 12);
  });
});

describe('ssimWithGrad', () => {
  it('matches central finite differences', () => {
    const rand = seeded(11);
    const a = randomImage(16, 14, rand);
    const b = randomImage(16, 14, rand);
    const { value, grad } = ssimWithGrad(a, b);
    expect(value).toBeCloseTo(ssim(a, b), 12);
    const eps = 1e-3;
    for (const i of [0, 5, 100, 301, 402, 16 * 14 * 3 - 1]) {
      const bump = (d: number): RgbImage => ({ ...a, data: a.data.map((v, j) => (j === i ? v + d : v)) });
      const fd = (ssim(bump(eps), b) - ssim(bump(-eps), b)) / (2 * eps);
      expect(grad[i]).toBeCloseTo(fd, 5);
    }
  });
});
