// CPU grading on the lab's worker pool: the same numbers as on the main thread (renders, PSNR,
// SSIM, IoU, LPIPS), the views' photos sent to the worker once and forgotten on release, and a
// grade that goes on while the event loop stays free to answer (a timer fires during it).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CpuBackend } from '../../../src/main/grader/cpu';
import { loadTask, type LoadedTask } from '../../../src/main/tasks/load';
import { WorkerPool } from '../../../src/main/workers/pool';
import { packRecords } from '../../../src/shared/scene/records';
import { TEST_TASK_IDS, type TestTask } from '../../helpers/test-task';
import { randomLpipsWeights } from '../../shared/metrics/wasm/random-weights';
import { fixtureTask } from '../tasks/fixture';

const weights = randomLpipsWeights(5);
let built: TestTask;
let task: LoadedTask;
const pool = new WorkerPool({ size: 1 });
beforeAll(async () => {
  ({ task: built } = await fixtureTask());
  task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir });
});
afterAll(() => pool.close());

describe('CpuBackend on the worker pool', () => {
  it('grades exactly as on the main thread', async () => {
    const here = new CpuBackend(weights, { lpipsWorkers: 1 });
    const there = new CpuBackend(weights, { lpipsWorkers: 1, pool });
    try {
      const splats = packRecords(built.init);
      const views = task.heldout.slice(0, 3);
      const a = await here.renderAndMeasure(splats, views, true);
      const b = await there.renderAndMeasure(splats, views, true);
      expect(b.scores).toEqual(a.scores);
      expect(b.renders.map((r) => r.rgb)).toEqual(a.renders.map((r) => r.rgb));
      const renders = await there.render(splats, views.map((v) => v.camera));
      expect(await there.measure(renders, views, false)).toEqual(a.scores.map(({ lpips: _, ...rest }) => rest));
      expect(pool.stats().started).toBe(1);
    } finally {
      here.destroy();
      there.destroy();
    }
  });

  it('keeps the event loop free while a grade runs, and forgets released views', async () => {
    const backend = new CpuBackend(null, { pool });
    const splats = packRecords(built.init);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    const grading = backend.renderAndMeasure(splats, task.heldout, false).then(() => ticks);
    const ticksWhenDone = await grading;
    clearInterval(timer);
    // Ordering, not timing: the timer ran while the grade was away on the worker.
    expect(ticksWhenDone).toBeGreaterThan(0);
    const forget = vi.spyOn(pool, 'forget');
    backend.release(task.heldout);
    expect(forget).toHaveBeenCalledTimes(task.heldout.length);
    const key = forget.mock.calls[0][0];
    await expect(pool.run('probe.resident', { key }, { client: 't' })).rejects.toThrow(/was not sent/);
    forget.mockRestore();
  });
});
