// fitGaussians on a tiny synthetic problem (8 views of a known 4-Gaussian scene at 32x32):
// the loss falls clearly, the result is bit-for-bit reproducible for a seed and inside the
// player's limits, the loss curve equals the one recorded before issue 40's SSIM rewrite, and an
// AbortSignal stops it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuFitBackend } from '../../../../src/shared/authoring/fit/backend';
import { fitGaussians, type FitProgress } from '../../../../src/shared/authoring/fit/fit';
import { syntheticViews } from './fit-helpers';

const views = syntheticViews(32);
const input = { views, maxGaussians: 40, steps: 60, seed: 7 };
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('fitGaussians (CPU)', () => {
  it('reduces the loss clearly and reproduces bit for bit', async () => {
    const progress: FitProgress[] = [];
    const a = await fitGaussians(input, cpuFitBackend(), (p) => progress.push(p));
    expect(a.losses).toHaveLength(60);
    expect(a.records).toHaveLength(40);
    // One epoch over the 8 views at the start vs at the end.
    expect(mean(a.losses.slice(-8))).toBeLessThan(0.6 * mean(a.losses.slice(0, 8)));
    expect(progress.map((p) => p.step)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(progress[59].loss).toBe(a.losses[59]);

    const b = await fitGaussians(input, cpuFitBackend());
    expect(b.losses).toEqual(a.losses);
    expect(JSON.stringify(b.records)).toBe(JSON.stringify(a.records));
    const c = await fitGaussians({ ...input, seed: 8 }, cpuFitBackend());
    expect(JSON.stringify(c.records)).not.toBe(JSON.stringify(a.records));

    // The curve of the previous implementation (test/fixtures/fit): the same to 1e-12 relative
    // (bit for bit on this machine; the tolerance only allows another libm).
    const recorded = (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'fit', 'loss-curve-32px-60.json'), 'utf8')) as { losses: number[] }).losses;
    expect(recorded).toHaveLength(60);
    a.losses.forEach((l, i) => expect(Math.abs(l - recorded[i])).toBeLessThanOrEqual(1e-12 * recorded[i]));

    for (const r of a.records) {
      for (const v of r.pos) expect(Math.abs(v)).toBeLessThanOrEqual(1.25);
      for (const s of r.scale) expect(s >= 0.005 && s <= 0.5).toBe(true);
      for (const v of r.color) expect(v >= 0 && v <= 1).toBe(true);
      expect(r.opacity >= 0.05 && r.opacity <= 1).toBe(true);
      expect(Math.hypot(...r.quat)).toBeCloseTo(1, 12);
    }
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    let seen = 0;
    const run = fitGaussians(input, cpuFitBackend(), (p) => {
      seen = p.step;
      if (p.step === 5) controller.abort();
    }, controller.signal);
    await expect(run).rejects.toThrow(/abort/i);
    expect(seen).toBe(5);
    await expect(fitGaussians(input, cpuFitBackend(), undefined, AbortSignal.abort())).rejects.toThrow(/abort/i);
  });

  it('rejects inconsistent input', async () => {
    await expect(fitGaussians({ ...input, views: [] }, cpuFitBackend())).rejects.toThrow(/no reference views/);
    await expect(fitGaussians({ ...input, steps: -1 }, cpuFitBackend())).rejects.toThrow(/steps/);
    const bad = { ...views[0], mask: new Float32Array(3) };
    await expect(fitGaussians({ ...input, views: [bad] }, cpuFitBackend())).rejects.toThrow(/does not match/);
  });
});
