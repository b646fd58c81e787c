// PSNR, MSE and the L1 loss with its gradient.
import { describe, expect, it } from 'vitest';
import { l1WithGrad, mse, psnr } from '../../../src/shared/metrics/psnr';
import { randomImage, seeded } from './random';

describe('psnr', () => {
  it('is Infinity for identical images, not a capped number', () => {
    const a = randomImage(4, 3, seeded(1));
    expect(psnr(a, a)).toBe(Infinity);
  });

  it('is 10 log10(1 / mse) over all RGB values', () => {
    const a = { width: 1, height: 2, data: Float32Array.of(0, 0, 0, 1, 1, 1) };
    const b = { width: 1, height: 2, data: Float32Array.of(0.5, 0, 0, 1, 1, 1) };
    expect(mse(a, b)).toBeCloseTo(0.25 / 6, 12);
    expect(psnr(a, b)).toBeCloseTo(10 * Math.log10(24), 10);
  });

  it('rejects different sizes', () => {
    expect(() => psnr(randomImage(2, 2, seeded(1)), randomImage(3, 2, seeded(1)))).toThrow(/sizes differ/);
  });
});

describe('l1WithGrad', () => {
  it('matches central finite differences', () => {
    const rand = seeded(5);
    const a = randomImage(5, 4, rand);
    const b = randomImage(5, 4, rand);
    const { value, grad } = l1WithGrad(a, b);
    const l1 = (x: Float32Array) => x.reduce((s, v, i) => s + Math.abs(v - b.data[i]), 0) / x.length;
    expect(value).toBeCloseTo(l1(a.data), 6);
    const eps = 1e-4;
    for (let i = 0; i < a.data.length; i += 7) {
      const up = a.data.slice();
      const down = a.data.slice();
      up[i] += eps;
      down[i] -= eps;
      expect(grad[i]).toBeCloseTo((l1(up) - l1(down)) / (2 * eps), 3);
    }
  });
});
