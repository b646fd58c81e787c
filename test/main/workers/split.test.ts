// Split jobs of the lab's worker pool (the tile rasterizer's stages run this way): the parts use
// every core beyond the cap of ordinary jobs, all the work is done exactly once, parts still queued
// when the work runs out are dropped, other clients keep their round-robin turns, a cancel drops
// the queued parts and settles once the running ones stopped, and a part whose thread dies fails
// only that split job.
import { afterEach, describe, expect, it } from 'vitest';
import { JobCancelled, JobFailed, WorkerPool } from '../../../src/main/workers/pool';

let pool: WorkerPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

function shareInput(total: number, ms: number) {
  return { ctl: new Int32Array(new SharedArrayBuffer(8)), owners: new Int32Array(new SharedArrayBuffer(total * 4)), total, ms };
}

describe('WorkerPool.runSplit', () => {
  it('runs the parts at once on splitSize threads although ordinary jobs are capped at size', async () => {
    pool = new WorkerPool({ size: 1, splitSize: 2 });
    // Warm both threads first, so thread start-up does not decide who takes the items.
    await pool.runSplit('probe.share', shareInput(2, 200), { client: 'a', parts: 2 });
    const input = shareInput(40, 10);
    const parts = await pool.runSplit('probe.share', input, { client: 'a', parts: 2 });
    expect(parts).toHaveLength(2);
    expect(new Set(parts.map((p) => p.thread)).size).toBe(2);
    expect(parts.every((p) => p.items > 0)).toBe(true);
    expect(parts.reduce((n, p) => n + p.items, 0)).toBe(40);
    expect([...input.owners].every((t) => t > 0)).toBe(true);
    expect(pool.stats()).toMatchObject({ size: 1, splitSize: 2, threads: 2, running: 0, queued: 0 });
  });

  it('drops the parts still queued when the work is done', async () => {
    pool = new WorkerPool({ size: 1, splitSize: 1 });
    const parts = await pool.runSplit('probe.share', shareInput(5, 1), { client: 'a', parts: 4 });
    expect(parts).toEqual([expect.objectContaining({ items: 5 })]);
    expect(pool.stats()).toMatchObject({ queued: 0, started: 1 });
  });

  it('keeps round-robin turns: an ordinary job of another client runs beside the parts', async () => {
    // Three threads started beforehand (a thread's start-up is not what this test is about).
    pool = new WorkerPool({ size: 1, splitSize: 3 });
    await pool.runSplit('probe.share', shareInput(3, 200), { client: 'a', parts: 3 });
    const order: string[] = [];
    const split = pool.runSplit('probe.share', shareInput(60, 10), { client: 'a', parts: 2 }).then(() => order.push('split'));
    const other = pool.run('probe.echo', { value: 1, tag: 'b' }, { client: 'b' }).then(() => order.push('b'));
    await Promise.all([split, other]);
    // The parts took two threads and do not count against the cap of ordinary jobs, so b started on
    // the third at once and finished long before the parts' 300 ms of work. (With splitSize 2 both
    // threads are the parts', and b's turn races the last part's return: that was flaky.)
    expect(order).toEqual(['b', 'split']);
  });

  it('a cancel drops the queued parts, stops the running one through the caller and settles once it returned', async () => {
    pool = new WorkerPool({ size: 1, splitSize: 1 });
    const input = shareInput(1000, 5);
    const ac = new AbortController();
    let stops = 0;
    const stop = (): void => {
      stops++;
      Atomics.store(input.ctl, 1, 1); // the caller's own shared flag
    };
    const split = pool.runSplit('probe.share', input, { client: 'a', parts: 3, signal: ac.signal, stop });
    while (Atomics.load(input.ctl, 0) === 0) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    expect(pool.stats().queued).toBe(0);
    await expect(split).rejects.toBeInstanceOf(JobCancelled);
    expect(stops).toBe(1);
    // No part works on the input after the job settled: the counter no longer moves.
    const taken = Atomics.load(input.ctl, 0);
    expect(taken).toBeLessThan(1000);
    expect(pool.stats().running).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(Atomics.load(input.ctl, 0)).toBe(taken);
    expect((await pool.run('probe.echo', { value: 'next' }, { client: 'b' })).value).toBe('next');
    expect(pool.stats().started).toBe(1);
  });

  it('a part whose thread dies fails that split job only; the next one runs on a fresh thread', async () => {
    pool = new WorkerPool({ size: 1, splitSize: 2 });
    const other = pool.run('probe.echo', { value: 'still here' }, { client: 'b' });
    await expect(pool.runSplit('probe.crash', { code: 9 }, { client: 'a', parts: 2 })).rejects.toThrow(/the worker running 'probe.crash' stopped \(exit code 9\)/);
    expect((await other).value).toBe('still here');
    const parts = await pool.runSplit('probe.share', shareInput(4, 1), { client: 'a', parts: 2 });
    expect(parts.reduce((n, p) => n + p.items, 0)).toBe(4);
  });

  it('a handler error is one line and refuses bad part counts', async () => {
    pool = new WorkerPool({ size: 1 });
    await expect(pool.runSplit('probe.fail', { message: 'no scene\n  at x' }, { client: 'a', parts: 2 })).rejects.toBeInstanceOf(JobFailed);
    await expect(pool.runSplit('probe.echo', { value: 1 }, { client: 'a', parts: 0 })).rejects.toThrow(/parts must be a positive integer/);
    expect(() => new WorkerPool({ size: 2, splitSize: 1 })).toThrow(/splitSize must be an integer of at least size/);
  });
});
