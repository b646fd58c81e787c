// The episode's images on the pool (src/main/kinds/splatbench/images-pool.ts, issue 29 item 1): the render_views
// sheet, the render_angle image and the reference sheet (issue 38 item 1) drawn on a worker are the
// same PNG bytes as on the main thread; concurrent starts of one task share one reference-sheet job;
// the player's reference photos (job 'splatbench.publicPhotos') are the main thread's views, once per task;
// an episode handed the lab's pool (KindEnvOptions.pool: the lab, MCP, RL) draws its images there.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { envImages } from '../../../../src/main/kinds/splatbench/images';
import { poolImages } from '../../../../src/main/kinds/splatbench/images-pool';
import { publicViews } from '../../../../src/main/kinds/splatbench/public';
import { SplatEnv } from '../../../../src/main/kinds/splatbench/env';
import { WorkerPool } from '../../../../src/main/workers/pool';
import { packRecords } from '../../../../src/shared/scene/records';
import { testTask, testTasks } from '../../env/fixtures';

const pool = new WorkerPool({ size: 1 });
afterAll(() => pool.close());

describe('episode images on the worker pool', () => {
  it('draws the same sheet and angle image as the main thread', async () => {
    const task = await testTask('test__sculpt');
    const { grader } = await testTasks();
    const splats = packRecords([{ id: 0, pos: [0, 0, 0], scale: [0.3, 0.3, 0.3], quat: [1, 0, 0, 0], color: [0.8, 0.4, 0.2], opacity: 0.9 }]);
    const views = task.reference.slice(0, 2);
    const metrics = await grader.compareViews(splats, views);
    const rows = metrics.map((m, i) => ({ view: views[i], metrics: m }));
    const images = poolImages(pool);
    expect(Buffer.from(await images.renderViewsSheet(rows)).equals(Buffer.from(envImages.renderViewsSheet(rows)))).toBe(true);
    const [render] = await grader.renderViews(splats, [views[0].camera]);
    const angle = await images.renderAngleImage(render, 'azimuth 10', views[0].camera);
    expect(pool.stats().started).toBeGreaterThan(0);
    expect(Buffer.from(angle).equals(Buffer.from(envImages.renderAngleImage(render, 'azimuth 10', views[0].camera)))).toBe(true);
  }, 120_000);

  it('draws the reference sheet on the pool once per task and selection, the same bytes as the main thread', async () => {
    const onPool = await testTask('test__sculpt');
    const onMain = await testTask('test__sculpt');
    const images = poolImages(pool);
    const run = vi.spyOn(pool, 'run');
    const jobs = (): number => run.mock.calls.filter(([name]) => name === 'splatbench.references').length;
    const first = images.referenceSheet(onPool);
    const second = images.referenceSheet(onPool);
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBe(first);
    const png = await first;
    expect(jobs()).toBe(1);
    expect(Buffer.from(png).equals(Buffer.from(envImages.referenceSheet(onMain)))).toBe(true);
    const two = await images.referenceSheet(onPool, [0, 1]);
    expect(jobs()).toBe(2);
    expect(Buffer.from(two).equals(Buffer.from(envImages.referenceSheet(onMain, [0, 1])))).toBe(true);
    expect(() => images.referenceSheet(onPool, [42])).toThrow('no reference views selected');
  }, 120_000);

  it('draws the player\'s reference photos on the pool once per task, the same views as the main thread', async () => {
    const onPool = await testTask('test__sculpt');
    const onMain = await testTask('test__sculpt');
    const images = poolImages(pool);
    const run = vi.spyOn(pool, 'run');
    const jobs = (): number => run.mock.calls.filter(([name]) => name === 'splatbench.publicPhotos').length;
    const first = images.publicViews!(onPool);
    expect(first).toBeInstanceOf(Promise);
    expect(images.publicViews!(onPool)).toBe(first);
    const views = await first;
    expect(jobs()).toBe(1);
    expect(views).toEqual(publicViews(onMain));
    expect(views.length).toBe(onMain.reference.length);
    // Once drawn, the task's views are answered without another job (and the main thread's reader sees them).
    expect(images.publicViews!(onPool)).toBe(views);
    expect(publicViews(onPool)).toBe(views);
    expect(jobs()).toBe(1);
  }, 120_000);

  it('draws an episode\'s images on the pool it is handed, and on the calling thread without one', async () => {
    const { grader } = await testTasks();
    const run = vi.spyOn(pool, 'run');
    const jobs = (): string[] => run.mock.calls.map(([name]) => String(name)).filter((n) => n.startsWith('splatbench.'));
    const onPool = await SplatEnv.reset(await testTask('test__sculpt'), { grader, pool, gradeEachStep: false });
    expect(jobs()).toEqual(expect.arrayContaining(['splatbench.references', 'splatbench.publicPhotos']));
    const angle = await onPool.env.step({ tool: 'render_angle', args: { azimuth: 10, elevation: 20 } });
    expect(angle.image).toBeDefined();
    expect(jobs()).toContain('splatbench.angleImage');
    run.mockClear();
    const here = await SplatEnv.reset(await testTask('test__sculpt'), { grader, gradeEachStep: false });
    expect(Buffer.from(here.obs.image!).equals(Buffer.from(onPool.obs.image!))).toBe(true);
    expect(jobs()).toEqual([]);
    await Promise.all([onPool.env.close(), here.env.close()]);
  }, 120_000);
});
