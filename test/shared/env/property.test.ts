// Reliability in the suite (issue 29 item 9: it must hold on a loaded 2-core machine): 20,000
// seeded random and malformed calls through propertyRun (property-run.ts); the 100,000-call run
// is the benchmark test/bench/property.bench.ts. Every tool must have been seen both accepted and
// refused, so the smaller count still reaches every rule.
import { describe, expect, it } from 'vitest';
import { propertyRun } from './property-run';

describe('episode under random and malformed calls', () => {
  it('survives 20,000 calls with exact budgets and valid scenes', () => {
    const { calls, episodes, seen } = propertyRun(20_000);
    expect(calls).toBeGreaterThanOrEqual(20_000);
    expect(episodes).toBeGreaterThan(200);
    for (const t of ['add_gaussians', 'edit_gaussians', 'delete_gaussians', 'transform_group', 'render_views', 'render_angle']) {
      expect(seen.has(`${t}:ok`)).toBe(true);
      expect(seen.has(`${t}:err`)).toBe(true);
    }
  });
});
