// Bootstrap CI of a mean on known data: degenerate cases, containment of the mean, agreement with
// the normal-theory interval on a large sample, reproducibility by seed, and the quantile rule.
import { describe, expect, it } from 'vitest';
import { bootstrapMeanCi, quantileSorted } from '../../../src/shared/analysis/bootstrap';
import { mulberry32 } from '../../../src/shared/math/random';

describe('quantileSorted', () => {
  it('interpolates linearly like numpy', () => {
    // numpy.quantile([1, 2, 3, 4], [0.025, 0.5, 0.975]) = [1.075, 2.5, 3.925]
    expect(quantileSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBeCloseTo(2.5, 12);
    expect(quantileSorted([1, 2, 3, 4], 0.975)).toBeCloseTo(3.925, 12);
  });
});

describe('bootstrapMeanCi', () => {
  it('has no interval for fewer than two values', () => {
    expect(bootstrapMeanCi([])).toEqual({ n: 0, mean: null, low: null, high: null });
    expect(bootstrapMeanCi([42])).toEqual({ n: 1, mean: 42, low: null, high: null });
  });

  it('collapses to the value when all values are equal', () => {
    expect(bootstrapMeanCi([7, 7, 7, 7])).toEqual({ n: 4, mean: 7, low: 7, high: 7 });
  });

  it('matches the normal-theory 95% interval on a large normal sample', () => {
    const rng = mulberry32(5);
    const xs = Array.from({ length: 400 }, () => rng.normal(50, 10));
    const ci = bootstrapMeanCi(xs, { resamples: 4000, seed: 1 });
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
    const half = (1.96 * sd) / Math.sqrt(xs.length);
    expect(ci.mean).toBeCloseTo(m, 10);
    expect(ci.low as number).toBeGreaterThan(m - half - 0.15);
    expect(ci.low as number).toBeLessThan(m - half + 0.15);
    expect(ci.high as number).toBeGreaterThan(m + half - 0.15);
    expect(ci.high as number).toBeLessThan(m + half + 0.15);
  });

  it('is reproducible by seed, brackets the mean, and stays within the data range', () => {
    const xs = [12.5, 40, 55.2, 61, 70.3, 88];
    const a = bootstrapMeanCi(xs, { seed: 3 });
    expect(bootstrapMeanCi(xs, { seed: 3 })).toEqual(a);
    expect(bootstrapMeanCi(xs, { seed: 4 })).not.toEqual(a);
    expect(a.low as number).toBeLessThan(a.mean as number);
    expect(a.high as number).toBeGreaterThan(a.mean as number);
    expect(a.low as number).toBeGreaterThanOrEqual(12.5);
    expect(a.high as number).toBeLessThanOrEqual(88);
  });

  it('widens with the level', () => {
    const xs = [1, 4, 9, 16, 25, 36];
    const c90 = bootstrapMeanCi(xs, { level: 0.9 });
    const c99 = bootstrapMeanCi(xs, { level: 0.99 });
    expect((c99.high as number) - (c99.low as number)).toBeGreaterThan((c90.high as number) - (c90.low as number));
  });
});
