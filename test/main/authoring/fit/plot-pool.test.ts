// A fit's loss plot on the worker pool (src/main/authoring/fit/plot.ts poolLossPlot, issue 38
// item 1): the fit_loss.png made by job 'author.lossPlot' is the same bytes as this thread's, and
// it is made by that job.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { localLossPlot, poolLossPlot } from '../../../../src/main/authoring/fit/plot';
import { WorkerPool } from '../../../../src/main/workers/pool';

const pool = new WorkerPool({ size: 1 });
afterAll(() => pool.close());

describe('loss plot on the worker pool', () => {
  it('draws a fit\'s loss plot as a pool job, the same bytes as this thread', async () => {
    const losses = [0.4, 0.3, 0.25, Number.NaN, 0.2, 0.18, 0.17];
    const run = vi.spyOn(pool, 'run');
    try {
      const png = await poolLossPlot(pool, 'author-test')(losses, 'cap: 7 steps');
      expect(run.mock.calls.map(([kind]) => kind)).toEqual(['author.lossPlot']);
      expect(Buffer.from(png).equals(Buffer.from(await localLossPlot(losses, 'cap: 7 steps')))).toBe(true);
    } finally {
      run.mockRestore();
    }
  }, 60_000);
});
