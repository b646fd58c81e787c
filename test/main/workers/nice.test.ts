// The lab's serving pools yield the CPU to the event loop (src/main/workers/nice.ts, issue 38
// item 1): a WorkerPool made with a niceness runs its jobs on threads at that niceness, one made
// without at the process's; the LPIPS pool likewise; and a LabContext's pool and its grader's LPIPS
// threads are at SERVING_NICE (read back in the threads). Nice is per thread on Linux only, so
// elsewhere every thread must stay at the process's priority. A malformed SPLATLAB_SERVING_NICE
// is refused in one line.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LpipsPool } from '../../../src/main/lpips/pool';
import { createLabContext } from '../../../src/main/services/context';
import { SERVING_NICE, servingNice } from '../../../src/main/workers/nice';
import { WorkerPool } from '../../../src/main/workers/pool';
import { randomLpipsWeights } from '../../shared/metrics/wasm/random-weights';

const base = getPriority(0);
const linux = process.platform === 'linux';
const lowered = linux ? Math.max(base, SERVING_NICE) : base;

/** Threads of this process at niceness `nice` (/proc/self/task/<tid>/stat, field 19). */
function threadsAt(nice: number): number {
  return readdirSync('/proc/self/task').filter((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) === nice;
  }).length;
}

describe('serving pools at a lower priority', () => {
  it('runs a pool made with a niceness on threads at it, and one made without at the process\'s', async () => {
    const serving = new WorkerPool({ size: 1, nice: SERVING_NICE });
    const batch = new WorkerPool({ size: 1 });
    try {
      expect((await serving.run('probe.priority', {}, { client: 't' })).nice).toBe(lowered);
      expect((await batch.run('probe.priority', {}, { client: 't' })).nice).toBe(base);
      expect(getPriority(0)).toBe(base);
    } finally {
      await Promise.all([serving.close(), batch.close()]);
    }
  }, 60_000);

  it('starts LPIPS workers at the niceness asked for, else at the process\'s', async () => {
    const packed = new Float32Array(4);
    const serving = LpipsPool.create(randomLpipsWeights(1), { workers: 2, packed, nice: SERVING_NICE });
    const batch = LpipsPool.create(randomLpipsWeights(1), { workers: 1, packed });
    try {
      expect(await serving.niceness()).toEqual([lowered, lowered]);
      expect(await batch.niceness()).toEqual([base]);
    } finally {
      serving.destroy();
      batch.destroy();
    }
  });

  it('gives a lab context\'s pool and its grader\'s LPIPS threads SERVING_NICE', async () => {
    const home = mkdtempSync(join(tmpdir(), 'splatlab-nice-'));
    const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir: join(home, 'tasks'), home, version: '0.0.0-test', transport: 'direct', listTasks: async () => [], poolSize: 1 });
    try {
      expect((await ctx.pool.run('probe.priority', {}, { client: 't' })).nice).toBe(lowered);
      if (!linux) return; // no per-thread nice to count elsewhere
      // Every pool thread there can be, started: the threads that appear at that niceness next are
      // LPIPS's (and threads those start, which inherit it).
      ctx.pool.prestart(ctx.pool.splitSize);
      await Promise.all(Array.from({ length: ctx.pool.splitSize }, () => ctx.pool.run('probe.priority', {}, { client: 'warm' })));
      const before = threadsAt(lowered);
      const grader = await ctx.grader();
      expect(grader.lpipsProblem).toBeNull();
      const lpipsThreads = Math.min(8, Math.max(1, availableParallelism()));
      await vi.waitFor(() => expect(threadsAt(lowered) - before).toBeGreaterThanOrEqual(lpipsThreads), { timeout: 30_000, interval: 50 });
    } finally {
      await ctx.close();
    }
  }, 90_000);

  it('reads SPLATLAB_SERVING_NICE, refusing what is not a niceness', () => {
    expect(servingNice({})).toBe(SERVING_NICE);
    expect(servingNice({ SPLATLAB_SERVING_NICE: '0' })).toBe(0);
    expect(() => servingNice({ SPLATLAB_SERVING_NICE: '-5' })).toThrow(/SPLATLAB_SERVING_NICE must be an integer from 0 to 19, got '-5'/);
  });
});
