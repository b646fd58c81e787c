// Jobs run with resource limits (src/main/workers/pool.ts `limits`, used for decoding uploads:
// issue 29 item 8): each gets a fresh thread of its own, ended after it; one that grows its heap
// past the limit fails alone with one line, and the pool's ordinary threads serve on.
import { afterAll, describe, expect, it } from 'vitest';
import { JobFailed, WorkerPool } from '../../../src/main/workers/pool';

const pool = new WorkerPool({ size: 1, splitSize: 2 });
afterAll(() => pool.close());
const LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

describe('jobs with resource limits', () => {
  it('run on a thread of their own, never reused', async () => {
    const plain = await pool.run('probe.thread', {}, { client: 'a' });
    const a = await pool.run('probe.thread', {}, { client: 'a', limits: LIMITS });
    const b = await pool.run('probe.thread', {}, { client: 'a', limits: LIMITS });
    expect(new Set([plain.thread, a.thread, b.thread]).size).toBe(3);
    expect((await pool.run('probe.thread', {}, { client: 'a' })).thread).toBe(plain.thread);
  }, 120_000);

  it('fail alone when the heap outgrows the limit', async () => {
    const over = pool.run('probe.hog', { mb: 400 }, { client: 'upload', limits: LIMITS });
    await expect(over).rejects.toThrow(JobFailed);
    await expect(over).rejects.toThrow(/the worker running 'probe\.hog' stopped/);
    expect(await pool.run('probe.echo', { value: 7 }, { client: 'other' })).toEqual({ value: 7, tag: null });
    // The same job without limits completes (the limit, not the job, ended that thread).
    expect((await pool.run('probe.hog', { mb: 100 }, { client: 'other' })).held).toBe(100);
  }, 120_000);
});
