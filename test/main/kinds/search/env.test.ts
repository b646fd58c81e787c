// The live search episode end to end in Node: a hand-made room task loads through the kind
// registry, observations are 512x512 PNGs, the log holds the hidden distance/answerable part,
// the end record scores the answer, and the log regrades identically (and catches an edit); the
// lab's encoder option (its pool's job 'image.png', issue 38 item 1) gives the same PNG bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PNG } from 'pngjs';
import { loadAnyTask, mainKind } from '../../../../src/main/kinds/registry';
import { readTrajectory } from '../../../../src/main/env/trajectory';
import { regradeSearch } from '../../../../src/main/kinds/search/regrade';
import type { SearchTask } from '../../../../src/main/kinds/search/env';
import { searchTestTasks } from './test-task';
import type { RenderOutput } from '../../../../src/shared/raster/types';
import { poolPng } from '../../../../src/main/workers/png';
import { WorkerPool } from '../../../../src/main/workers/pool';

/** A flat grey image: the tests of the log need no real render (the real one is checked once). */
const fakeRender = (): RenderOutput => ({ width: 8, height: 8, rgb: new Float32Array(8 * 8 * 3).fill(0.5), alpha: new Float32Array(64) });

describe('search episode', () => {
  it('plays a task to an answer, logs the hidden part and regrades identically', async () => {
    const dir = searchTestTasks();
    const task = await loadAnyTask('search__t1', { tasksDir: dir });
    const log = join(dir, 'run.jsonl');
    const { env, obs } = await mainKind(task).reset(task, { grader: undefined as never, log, player: 'test', renderer: fakeRender } as never);
    expect(obs.text).toContain('Question: What colour is the cube?');
    expect(obs.text).toContain('[step 0/25 | steps left 25]');
    for (let i = 0; i < 6; i++) await env.step({ tool: 'turn_left' });
    const out = await env.step({ tool: 'stop', args: { answer: 'Red' } });
    expect(out.done).toBe(true);
    expect(env.finalGrade()?.score).toBe(100);
    await env.close();
    const traj = readTrajectory(log);
    // The header records the task's forward-key default as a protocol option (a mutation survivor).
    expect(traj.header).toMatchObject({ protocol_options: { default_forward: true } });
    expect(traj.steps).toHaveLength(8);
    const hidden = traj.steps.map((s) => (s as { search?: { answerable: boolean; distance: number } }).search);
    expect(hidden[0]).toMatchObject({ answerable: false, distance: 0 });
    expect(hidden[6]).toMatchObject({ answerable: true });
    expect(traj.end).toMatchObject({ reason: 'stop', correct: true, success: true, steps: 7, collision: 0, path_length: 0 });
    expect(regradeSearch(task as SearchTask, traj).problems).toEqual([]);
    // An edited answer no longer regrades to the logged end record.
    const edited = readFileSync(log, 'utf8').replace('"answer":"Red"', '"answer":"blue"');
    writeFileSync(log, edited);
    expect(regradeSearch(task as SearchTask, readTrajectory(log)).problems.join('\n')).toMatch(/end: score 100 != 0/);
  });

  it('renders the observation at 512x512 through the rasterizer and resumes a log', async () => {
    const dir = searchTestTasks();
    const task = await loadAnyTask('search__t1', { tasksDir: dir });
    const log = join(dir, 'run.jsonl');
    const { env, obs } = await mainKind(task).reset(task, { grader: undefined as never, log, player: 'test' } as never);
    const png = PNG.sync.read(Buffer.from(obs.image!));
    expect([png.width, png.height]).toEqual([512, 512]);
    await env.close();
    const again = await mainKind(task).reset(task, { grader: undefined as never, resumeFrom: log, renderer: fakeRender } as never);
    expect(again.env.currentInfo().budgets.callsLeft).toBe(25);
    const r = await again.env.step({ tool: 'move_forward' });
    expect(r.text).toMatch(/\[step 1\/25/);
    await again.env.close();
    expect(readTrajectory(log).steps).toHaveLength(2);
  });

  it('encodes observations where the lab says (its pool), to the same bytes', async () => {
    const pool = new WorkerPool({ size: 1 });
    afterAll(() => pool.close());
    const dir = searchTestTasks();
    const task = await loadAnyTask('search__t1', { tasksDir: dir });
    const stripes = (): RenderOutput => ({ width: 8, height: 8, rgb: Float32Array.from({ length: 8 * 8 * 3 }, (_, i) => (i % 7) / 7), alpha: new Float32Array(64) });
    const run = vi.spyOn(pool, 'run');
    const onPool = await mainKind(task).reset(task, { grader: undefined as never, log: join(dir, 'pool.jsonl'), player: 'test', renderer: stripes, encodePng: poolPng(pool, 'obs') } as never);
    const here = await mainKind(task).reset(task, { grader: undefined as never, log: join(dir, 'here.jsonl'), player: 'test', renderer: stripes } as never);
    expect(Buffer.from(onPool.obs.image!).equals(Buffer.from(here.obs.image!))).toBe(true);
    const [a, b] = [await onPool.env.step({ tool: 'turn_left' }), await here.env.step({ tool: 'turn_left' })];
    expect(Buffer.from(a.image!).equals(Buffer.from(b.image!))).toBe(true);
    expect(run.mock.calls.map(([kind]) => kind)).toEqual(['image.png', 'image.png']);
    await Promise.all([onPool.env.close(), here.env.close()]);
  }, 60_000);
});
