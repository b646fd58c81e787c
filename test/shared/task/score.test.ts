// SplatScore arithmetic: anchors map to exactly 0 and 100, LPIPS counts lower-is-better, and the
// score falls back to two terms when LPIPS is missing anywhere.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benchmarkReward, normalizeMetric, splatScore, trainingReward } from '../../../src/shared/task/score';
import type { Anchors } from '../../../src/shared/task/schema';

const anchors: Anchors = {
  empty: { psnr: 17, ssim: 0.9, lpips: 0.3, iou: 0 },
  fit: { psnr: 29, ssim: 0.96, lpips: 0.06, iou: 0.9 },
  lpips_model: 'alex-v0.1',
};

describe('normalizeMetric', () => {
  it('maps the empty anchor to exactly 0 and the fit anchor to exactly 100', () => {
    fc.assert(
      fc.property(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: -50, max: 50, noNaN: true }), (e, f) => {
        fc.pre(e !== f);
        expect(normalizeMetric(e, e, f)).toBe(0);
        expect(normalizeMetric(f, e, f)).toBe(100);
      }),
    );
  });

  it('treats lower LPIPS as better (the anchors give the direction) and allows scores beyond the anchors', () => {
    expect(normalizeMetric(0.18, 0.3, 0.06)).toBeCloseTo(50, 12);
    expect(normalizeMetric(0.0, 0.3, 0.06)).toBeCloseTo(125, 12);
    expect(normalizeMetric(0.42, 0.3, 0.06)).toBeCloseTo(-50, 12);
    expect(normalizeMetric(23, 17, 29)).toBeCloseTo(50, 12);
  });

  it('gives 0 for degenerate anchors instead of dividing by zero', () => {
    expect(normalizeMetric(5, 3, 3)).toBe(0);
  });
});

describe('splatScore', () => {
  it('averages three terms with LPIPS and two without', () => {
    const three = splatScore({ psnr: 23, ssim: 0.93, lpips: 0.18, iou: 0.5 }, anchors);
    expect(three.normalized.psnr).toBeCloseTo(50, 10);
    expect(three.normalized.ssim).toBeCloseTo(50, 10);
    expect(three.normalized.lpips).toBeCloseTo(50, 10);
    expect(three.score).toBeCloseTo(50, 10);
    expect(three.lpipsMissing).toBe(false);
    const two = splatScore({ psnr: 29, ssim: 0.93, lpips: null, iou: 0.5 }, anchors);
    expect(two.score).toBeCloseTo(75, 10);
    expect(two.lpipsMissing).toBe(true);
    expect(two.normalized.lpips).toBeNull();
    const noAnchor = splatScore({ psnr: 29, ssim: 0.96, lpips: 0.06, iou: 1 }, { ...anchors, fit: { ...anchors.fit, lpips: null } });
    expect(noAnchor.lpipsMissing).toBe(true);
    expect(noAnchor.score).toBe(100);
  });

  it('computes both rewards with their clips', () => {
    expect(benchmarkReward(-20)).toBe(0);
    expect(benchmarkReward(42)).toBeCloseTo(0.42, 12);
    expect(benchmarkReward(130)).toBe(1);
    expect(trainingReward(-50)).toBe(0);
    expect(trainingReward(25)).toBeCloseTo(0.5, 12);
    expect(trainingReward(100)).toBe(1);
    const s = splatScore({ psnr: 17, ssim: 0.9, lpips: 0.3, iou: 0 }, anchors);
    expect(s.score).toBe(0);
    expect(s.reward).toBe(0);
    expect(s.trainingReward).toBeCloseTo(1 / 3, 12);
  });
});
