// A relation trial's stimulus on the lab's worker pool (issue 38 item 1; src/main/kinds/relation/
// trial-image.ts): the job 'relation.trialImage' gives the main thread's bytes, concurrent
// requests for one image share one job, a live episode given the lab's pool draws its images
// there (and without a pool, the CLI's case, on this thread), and a render that fails charges nothing.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../../../../src/main/io/data-dir';
import type { KindEnvOptions } from '../../../../src/main/kinds/kind';
import { loadRelationTask, relationMain } from '../../../../src/main/kinds/relation/kind';
import { poolTrialRenderer, renderTrialPng } from '../../../../src/main/kinds/relation/trial-image';
import { WorkerPool } from '../../../../src/main/workers/pool';

const ID = 'relation__forest__tent-bear__allo';
const pool = new WorkerPool({ size: 1 });
const tmp = mkdtempSync(join(tmpdir(), 'relation-pool-'));
afterAll(async () => {
  await pool.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A fresh copy of the task (its own image-cache key: the cache is by the parameters file's path). */
function freshTasks(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'relation'), { recursive: true });
  copyFileSync(join(repoRoot(), 'tasks', `${ID}.json`), join(dir, `${ID}.json`));
  copyFileSync(join(repoRoot(), 'tasks', 'relation', `${ID}.json`), join(dir, 'relation', `${ID}.json`));
  return dir;
}

const jobsOf = (run: { mock: { calls: unknown[][] } }): number => run.mock.calls.filter(([name]) => name === 'relation.trialImage').length;
const opts = (extra: Partial<KindEnvOptions> = {}): KindEnvOptions => ({ grader: null as never, protocol: 'agent', player: 'test', ...extra });

describe('relation trial images on the worker pool', () => {
  it('the pool job draws the same PNG bytes as the main thread', async () => {
    const task = loadRelationTask(freshTasks('bytes'), { task_id: ID, kind: 'relation' });
    const input = { params: task.params[0], samples: task.spec.samples };
    const onPool = await poolTrialRenderer(pool)(input);
    expect(Buffer.from(onPool).equals(Buffer.from(renderTrialPng(input)))).toBe(true);
  }, 120_000);

  it('concurrent requests for one trial image share one job; a live episode given the pool draws there', async () => {
    const dir = freshTasks('shared');
    const task = loadRelationTask(dir, { task_id: ID, kind: 'relation' });
    const run = vi.spyOn(pool, 'run');
    try {
      const render = poolTrialRenderer(pool);
      const first = task.image(0, render);
      expect(task.image(0, render)).toBe(first);
      await first;
      expect(jobsOf(run)).toBe(1);
      // A live episode on another copy: its first image comes from the pool, not this thread.
      const other = loadRelationTask(freshTasks('episode'), { task_id: ID, kind: 'relation' });
      const { env, obs } = await relationMain.reset(other, opts({ pool }));
      expect(jobsOf(run)).toBe(2);
      expect(Buffer.from(obs.image!).equals(Buffer.from(renderTrialPng({ params: other.params[0], samples: other.spec.samples })))).toBe(true);
      await env.close();
    } finally {
      run.mockRestore();
    }
  }, 120_000);

  it('without a pool (the CLI) the image is drawn on this thread, the same bytes', async () => {
    const task = loadRelationTask(freshTasks('local'), { task_id: ID, kind: 'relation' });
    const run = vi.spyOn(pool, 'run');
    try {
      const { env, obs } = await relationMain.reset(task, opts());
      expect(jobsOf(run)).toBe(0);
      expect(Buffer.from(obs.image!).equals(Buffer.from(renderTrialPng({ params: task.params[0], samples: task.spec.samples })))).toBe(true);
      await env.close();
    } finally {
      run.mockRestore();
    }
  }, 120_000);

  it('a render that fails is forgotten: the next request draws again', async () => {
    const task = loadRelationTask(freshTasks('fails'), { task_id: ID, kind: 'relation' });
    let calls = 0;
    const failing = (): Promise<Uint8Array> => {
      calls += 1;
      return Promise.reject(new Error('the pool is closed'));
    };
    await expect(task.image(0, failing)).rejects.toThrow('the pool is closed');
    await expect(task.image(0, failing)).rejects.toThrow('the pool is closed');
    expect(calls).toBe(2);
  });
});
