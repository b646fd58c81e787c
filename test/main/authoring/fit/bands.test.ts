// The banded fit with its helper thread (issue 40 item 1, src/main/authoring/fit/bands.ts): the
// helper ('author.fit.bands' on the backend's own pool) computes bands that give the records and
// losses of the fit on this thread alone, bit for bit. With leaderBands off this thread runs no
// band while the helper lives, so every band of that fit is the helper's. Tiny: 32x32 views.
import { describe, expect, it } from 'vitest';
import { parallelCpuFitBackend } from '../../../../src/main/authoring/fit/bands';
import { bandFitBackend } from '../../../../src/shared/authoring/fit/backend-bands';
import { fitGaussians } from '../../../../src/shared/authoring/fit/fit';
import { syntheticViews } from '../../../shared/authoring/fit/fit-helpers';

const input = { views: syntheticViews(32), maxGaussians: 30, steps: 24, seed: 11 };

describe('the banded fit on a helper thread', () => {
  it("equals the fit on this thread alone, with every band on the helper", async () => {
    const alone = await fitGaussians(input, bandFitBackend());
    const backend = parallelCpuFitBackend({ leaderBands: false });
    try {
      const helped = await fitGaussians(input, backend);
      expect(helped.losses).toEqual(alone.losses);
      expect(JSON.stringify(helped.records)).toBe(JSON.stringify(alone.records));
      expect(backend.stats.bands).toBeGreaterThan(0);
      expect(backend.stats.here).toBe(0);
    } finally {
      backend.dispose?.();
    }
  }, 60_000);
});
