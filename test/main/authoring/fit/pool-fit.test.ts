// The fit off the event loop (issue 38 item 1): the worker pool's job 'author.fit' (poolRunner,
// its steps' row bands on its thread and a helper thread) gives the records and losses of the
// same banded fit on this thread alone, bit for bit, reports every step's
// loss once and in order, keeps the main thread idle while it runs (its event-loop utilisation,
// a ratio of the main thread's own busy time: near 1 when the fit runs here), and a cancel
// ends it with one line. Tiny: 32x32 synthetic views, 30 Gaussians.
import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { localRunner, poolRunner, type FitRunInput, type FitRunner } from '../../../../src/main/authoring/fit/compute';
import { WorkerPool } from '../../../../src/main/workers/pool';
import { bandFitBackend } from '../../../../src/shared/authoring/fit/backend-bands';
import { syntheticViews } from '../../../shared/authoring/fit/fit-helpers';

const pool = new WorkerPool({ size: 1 });
afterAll(() => pool.close());

const input = (steps: number): FitRunInput => ({ views: syntheticViews(32), maxGaussians: 30, steps, seed: 5, referencePsnr: true });

async function run(runner: FitRunner, steps: number): Promise<{ result: Awaited<ReturnType<FitRunner>>; ticked: number[]; steps: number[]; busy: number }> {
  const ticked: number[] = [];
  const stepsSeen: number[] = [];
  const elu0 = performance.eventLoopUtilization();
  const result = await runner(input(steps), (t) => {
    ticked.push(...t.losses);
    stepsSeen.push(t.step);
  });
  return { result, ticked, steps: stepsSeen, busy: performance.eventLoopUtilization(elu0).utilization };
}

describe("the fit on the worker pool (job 'author.fit')", () => {
  it('equals the fit on this thread, reports each loss once, and leaves the event loop idle', async () => {
    // Here in row bands on this thread alone; there on the pool with a helper thread (issue 40).
    const here = await run(localRunner(bandFitBackend()), 40);
    const there = await run(poolRunner(pool, 'test'), 40);
    expect(there.result.records).toEqual(here.result.records);
    expect(there.result.losses).toEqual(here.result.losses);
    expect(there.result.referencePsnr).toEqual(here.result.referencePsnr);
    expect(there.ticked).toEqual(here.result.losses);
    expect(there.steps.at(-1)).toBe(40);
    expect(here.busy).toBeGreaterThan(0.5);
    expect(there.busy).toBeLessThan(0.5);
  }, 120_000);

  it('stops on cancel with one line', async () => {
    const stop = new AbortController();
    const fit = poolRunner(pool, 'test')(input(100_000), () => stop.abort(), stop.signal);
    await expect(fit).rejects.toThrow(/^[^\n]*cancel[^\n]*$/);
  }, 60_000);
});
