// Boundaries the mutation sample found unguarded (docs/MUTATION.md): the smallest image each
// metric accepts is accepted, exactly at the limit, not only the one below it refused.
import { describe, expect, it } from 'vitest';
import { ssim } from '../../../src/shared/metrics/ssim';
import { randomImage, seeded } from './random';

describe('metric size limits', () => {
  it('computes SSIM on an image exactly the window size (11x11) in both dimensions', () => {
    const a = randomImage(11, 11, seeded(3));
    expect(ssim(a, a)).toBeCloseTo(1, 12);
    expect(ssim(randomImage(11, 30, seeded(4)), randomImage(11, 30, seeded(5)))).toBeLessThan(1);
    expect(ssim(randomImage(30, 11, seeded(4)), randomImage(30, 11, seeded(5)))).toBeLessThan(1);
    expect(() => ssim(randomImage(30, 10, seeded(1)), randomImage(30, 10, seeded(2)))).toThrow(/at least 11x11/);
  });
});
