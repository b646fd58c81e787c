// The lab's worker pool on real threads: per-client FIFO queues served round-robin, cancellation
// of queued and running jobs, a dying thread fails only its own job, errors come back as one line,
// resident data, and close() ends every thread (vitest's process exits only if none is left).
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { JobCancelled, JobFailed, PoolClosed, WorkerPool, defaultPoolSize } from '../../../src/main/workers/pool';

let pool: WorkerPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

function onePool(size = 1): WorkerPool {
  pool = new WorkerPool({ size });
  return pool;
}

describe('WorkerPool', () => {
  it('is sized to the machine: the cores minus one, at least one', () => {
    expect(defaultPoolSize()).toBeGreaterThanOrEqual(1);
    expect(new WorkerPool().size).toBe(defaultPoolSize());
    expect(() => new WorkerPool({ size: 0 })).toThrow(/positive integer/);
  });

  it('runs a job on a thread and returns its result', async () => {
    const p = onePool();
    expect(await p.run('probe.echo', { value: [1, { a: 'b' }], tag: 't' }, { client: 'a' })).toEqual({ value: [1, { a: 'b' }], tag: 't' });
    expect(p.stats()).toMatchObject({ threads: 1, running: 0, queued: 0, started: 1 });
  });

  it('prestart() starts idle threads ahead that the first jobs then use, capped at splitSize', async () => {
    const p = (pool = new WorkerPool({ size: 1, splitSize: 2 }));
    p.prestart();
    expect(p.stats()).toMatchObject({ threads: 1, started: 1, running: 0 });
    p.prestart(5);
    expect(p.stats()).toMatchObject({ threads: 2, started: 2 });
    p.prestart(2);
    const parts = await p.runSplit('probe.echo', { value: 3 }, { client: 'a', parts: 2 });
    expect(parts.map((r) => r.value)).toEqual([3, 3]);
    expect(p.stats()).toMatchObject({ threads: 2, started: 2, running: 0 });
    await p.close();
    p.prestart();
    expect(p.stats().started).toBe(2);
  });

  it('serves clients round-robin: a burst from one client does not starve another', async () => {
    const p = onePool();
    const order: string[] = [];
    const job = (client: string, tag: string) => p.run('probe.echo', { value: 0, tag }, { client }).then((r) => order.push(r.tag as string));
    // A spin from client z occupies the thread; the rest queue: a burst a1..a5, then b1, b2, c1.
    const busy = p.run('probe.spin', { ms: 100 }, { client: 'z' });
    const all = [...[1, 2, 3, 4, 5].map((i) => job('a', `a${i}`)), job('b', 'b1'), job('b', 'b2'), job('c', 'c1')];
    await Promise.all([busy, ...all]);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4', 'a5']);
  });

  it('drops a queued job whose signal is aborted; it never runs', async () => {
    const p = onePool();
    const busy = p.run('probe.spin', { ms: 300 }, { client: 'a' });
    const ac = new AbortController();
    const queued = p.run('probe.echo', { value: 1 }, { client: 'b', signal: ac.signal });
    const after = p.run('probe.echo', { value: 2 }, { client: 'c' });
    expect(p.stats().queued).toBe(2);
    ac.abort();
    await expect(queued).rejects.toBeInstanceOf(JobCancelled);
    expect(p.stats().queued).toBe(1);
    await busy;
    expect((await after).value).toBe(2);
    expect(p.stats().started).toBe(1);
  });

  it('stops a running job when its signal is aborted and starts a fresh thread for the next job', async () => {
    const p = onePool();
    const ac = new AbortController();
    const progress: number[] = [];
    const long = p.run('probe.spin', { ms: 60_000, slices: 6000 }, { client: 'a', signal: ac.signal, onProgress: (e) => progress.push(e.done) });
    const next = p.run('probe.echo', { value: 'after' }, { client: 'b' });
    while (progress.length === 0) await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    await expect(long).rejects.toThrow('cancelled');
    expect((await next).value).toBe('after');
    expect(p.stats().started).toBe(2);
  });

  it('returns a handler error as one line and keeps the thread', async () => {
    const p = onePool();
    const failed = p.run('probe.fail', { message: 'bad scene: 3 is not a colour\n    at stack line' }, { client: 'a' });
    await expect(failed).rejects.toBeInstanceOf(JobFailed);
    await expect(failed).rejects.toThrow(/^bad scene: 3 is not a colour$/);
    expect((await p.run('probe.echo', { value: 1 }, { client: 'a' })).value).toBe(1);
    expect(p.stats().started).toBe(1);
  });

  it('contains a thread that dies: only its job fails, the others run on a new thread', async () => {
    const p = onePool();
    const crash = p.run('probe.crash', { code: 7 }, { client: 'a' });
    const other = p.run('probe.echo', { value: 'still here' }, { client: 'b' });
    await expect(crash).rejects.toThrow(/the worker running 'probe.crash' stopped \(exit code 7\)/);
    expect((await other).value).toBe('still here');
    expect(p.stats()).toMatchObject({ threads: 1, started: 2 });
  });

  it('sends resident data once per thread and forgets it on request', async () => {
    const p = onePool();
    const resident = [{ key: 'views:1', value: { photos: [1, 2, 3] } }];
    expect(await p.run('probe.resident', { key: 'views:1' }, { client: 'a', resident })).toEqual({ photos: [1, 2, 3] });
    expect(await p.run('probe.resident', { key: 'views:1' }, { client: 'a' })).toEqual({ photos: [1, 2, 3] });
    p.forget('views:1');
    await expect(p.run('probe.resident', { key: 'views:1' }, { client: 'a' })).rejects.toThrow(/resident 'views:1' was not sent/);
  });

  it('uses up to `size` threads at once', async () => {
    const p = onePool(2);
    await Promise.all([p.run('probe.spin', { ms: 50 }, { client: 'a' }), p.run('probe.spin', { ms: 50 }, { client: 'a' }), p.run('probe.spin', { ms: 50 }, { client: 'b' })]);
    expect(p.stats().started).toBe(2);
  });

  it('close() fails queued and running jobs, ends the threads and refuses new jobs', async () => {
    const p = onePool();
    const running = p.run('probe.spin', { ms: 60_000, slices: 600 }, { client: 'a' });
    const queued = p.run('probe.echo', { value: 1 }, { client: 'b' });
    const outcomes = Promise.all([expect(running).rejects.toBeInstanceOf(PoolClosed), expect(queued).rejects.toBeInstanceOf(PoolClosed)]);
    await new Promise((r) => setTimeout(r, 50));
    await p.close();
    await outcomes;
    expect(p.stats()).toMatchObject({ threads: 0, queued: 0 });
    await expect(p.run('probe.echo', { value: 1 }, { client: 'a' })).rejects.toThrow('the worker pool is closed');
  });

  it('leaves no thread behind: a process whose lab context is closed mid-job exits by itself', () => {
    // A child process (no explicit exit): a lab context's pool runs a long job, the context is
    // closed; a leaked thread would keep the child alive until the timeout kills it.
    const script = [
      "import { createLabContext } from './src/main/services/context';",
      "const gpu = { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } };",
      "const ctx = createLabContext({ gpu, version: '0', transport: 'direct', listTasks: async () => [], poolSize: 1 });",
      "const long = ctx.pool.run('probe.spin', { ms: 600000, slices: 6000 }, { client: 'a' }).catch((e) => console.log('job:', e.message));",
      "await new Promise((r) => setTimeout(r, 300));",
      'await ctx.close();',
      'await long;',
      "console.log('closed');",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8', timeout: 60_000 });
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout).toContain('job: the worker pool is closed');
    expect(child.stdout).toContain('closed');
  }, 90_000);
});
