// Durability of the trajectory writer: node:fs is wrapped (vi.mock) so the test sees every write
// and fsync the writer makes. Each record must be written and then fsynced on the same file
// descriptor before write() returns, and a resume must fsync the truncation before appending.
// The serving paths' appends, resumes and end records (issue 38 item 2) do the same on libuv's
// pool (node:fs's callback calls, `a...` below) before their promise resolves, with no
// synchronous write or fsync on the event loop. Removing or reordering the fsync in
// TrajectoryWriter fails this test.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

type FsModule = typeof import('node:fs');
const events: { op: 'write' | 'fsync' | 'ftruncate' | 'awrite' | 'afsync' | 'aftruncate'; fd: number; text?: string }[] = [];
type Callback = (...args: unknown[]) => void;

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<FsModule>();
  const wrapped = {
    ...fs,
    writeSync: ((fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
      events.push({ op: 'write', fd, text: typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8') });
      return (fs.writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
    }) as FsModule['writeSync'],
    fsyncSync: (fd: number) => {
      events.push({ op: 'fsync', fd });
      fs.fsyncSync(fd);
    },
    ftruncateSync: (fd: number, len?: number) => {
      events.push({ op: 'ftruncate', fd });
      fs.ftruncateSync(fd, len);
    },
    write: ((fd: number, data: Buffer, offset: number, length: number, position: number | null, cb: Callback) => {
      events.push({ op: 'awrite', fd, text: data.subarray(offset, offset + length).toString('utf8') });
      fs.write(fd, data, offset, length, position, cb as never);
    }) as unknown as FsModule['write'],
    fsync: ((fd: number, cb: Callback) => {
      events.push({ op: 'afsync', fd });
      fs.fsync(fd, cb as never);
    }) as FsModule['fsync'],
    ftruncate: ((fd: number, len: number, cb: Callback) => {
      events.push({ op: 'aftruncate', fd });
      fs.ftruncate(fd, len, cb as never);
    }) as unknown as FsModule['ftruncate'],
  };
  return { ...wrapped, default: wrapped };
});

// The unit suite's setup (test/helpers/lab-kinds.ts) may already have loaded the writer with the
// real node:fs; a fresh module graph makes this import bind to the wrapped one.
vi.resetModules();
const { readTrajectory, TrajectoryWriter } = await import('../../../src/main/env/trajectory');
const { tmpLog } = await import('./fixtures');
const { loadRelationTask, relationMain } = await import('../../../src/main/kinds/relation/kind');
const { repoRoot } = await import('../../../src/main/io/data-dir');

const header = { type: 'header', task: 't', protocol: 'agent', player: 'p', versions: { splatlab: '0', format: 1, node: 'v20' }, started: 'now' } as const;
const step = (n: number) => ({ step: n, tool: 'submit', args: {}, text: `call ${n}`, t: 'x', ms: 1 });

/** Asserts that the writer's last two fs calls were: write of a line containing `marker`, then fsync of that fd. */
function expectWrittenThenSynced(marker: string): void {
  const [w, s] = events.slice(-2);
  expect(w?.op).toBe('write');
  expect(w?.text).toContain(marker);
  expect(s).toEqual({ op: 'fsync', fd: w?.fd });
}

describe('trajectory writer durability', () => {
  beforeEach(() => {
    events.length = 0;
  });

  it('fsyncs every record (header, steps, end) right after writing it', () => {
    const path = tmpLog('durable.jsonl');
    const w = TrajectoryWriter.create(path, header);
    expectWrittenThenSynced('"type":"header"');
    for (let n = 0; n < 3; n++) {
      w.write(step(n));
      expectWrittenThenSynced(`"call ${n}"`);
    }
    w.write({
      type: 'end', reason: 'submit', score: 1, reward: 0.01, training_reward: 0.34, psnr: 20, ssim: 0.9, iou: 0.5, lpips: null, lpips_missing: true,
      calls_used: 3, renders_used: 0, gaussians: 0, t: 'x',
    });
    expectWrittenThenSynced('"type":"end"');
    w.close();
    expect(events.filter((e) => e.op === 'write')).toHaveLength(5);
    expect(events.filter((e) => e.op === 'fsync')).toHaveLength(5);
    const log = readTrajectory(path);
    expect(log.steps).toHaveLength(3);
    expect(log.end?.reason).toBe('submit');
  });

  it('fsyncs the truncation of a resumed log before appending to it', () => {
    const path = tmpLog('durable-resume.jsonl');
    const w = TrajectoryWriter.create(path, header);
    w.write(step(0));
    w.close();
    const { validBytes } = readTrajectory(path);
    events.length = 0;
    const again = TrajectoryWriter.resume(path, validBytes);
    expect(events.map((e) => e.op)).toEqual(['ftruncate', 'fsync']);
    expect(events[1].fd).toBe(events[0].fd);
    again.write(step(1));
    expectWrittenThenSynced('"call 1"');
    again.close();
  });
});

describe('trajectory writes of the serving paths, off the event loop', () => {
  beforeEach(() => {
    events.length = 0;
  });

  /** The last two calls: a write (on libuv's pool) of a line holding `marker`, then the fsync of its fd. */
  function expectAppendedThenSynced(marker: string): void {
    const [w, s] = events.slice(-2);
    expect(w?.op).toBe('awrite');
    expect(w?.text).toContain(marker);
    expect(s).toEqual({ op: 'afsync', fd: w?.fd });
  }
  const synchronous = (): string[] => events.filter((e) => !e.op.startsWith('a')).map((e) => e.op);

  it('an append is written and fsynced on libuv\'s pool before it resolves; a resume flushes its cut there', async () => {
    const path = tmpLog('durable-async.jsonl');
    const w = await TrajectoryWriter.start(path, header, step(0));
    expectAppendedThenSynced('"call 0"');
    for (let n = 1; n < 3; n++) {
      await w.append(step(n));
      expectAppendedThenSynced(`"call ${n}"`);
    }
    w.close();
    const { validBytes } = readTrajectory(path);
    events.length = 0;
    const again = await TrajectoryWriter.resumeAsync(path, validBytes);
    expect(events.map((e) => e.op)).toEqual(['aftruncate', 'afsync']);
    expect(events[1].fd).toBe(events[0].fd);
    await again.append(step(3));
    expectAppendedThenSynced('"call 3"');
    again.close();
    expect(synchronous()).toEqual([]);
    expect(readTrajectory(path).steps.map((x) => x.step)).toEqual([0, 1, 2, 3]);
  });

  it('a relation episode\'s last answer: its step and end records are flushed before the reply, none on the event loop', async () => {
    const id = 'relation__forest__tent-bear__allo';
    const task = loadRelationTask(join(repoRoot(), 'tasks'), { task_id: id, kind: 'relation' });
    const log = join(mkdtempSync(join(tmpdir(), 'durable-relation-')), 'relation.jsonl');
    const { env } = await relationMain.reset(task, { grader: null as never, protocol: 'agent', player: 'test', log });
    events.length = 0;
    const out = await env.step({ tool: 'answer', args: { relation: task.params[0].relation.label } });
    expect(out.done).toBe(true);
    expect(synchronous()).toEqual([]);
    expect(events.filter((e) => e.op === 'awrite').map((e) => JSON.parse(e.text!) as { type?: string; step?: number }).map((r) => r.type ?? `step ${r.step}`)).toEqual(['step 1', 'end']);
    expectAppendedThenSynced('"type":"end"');
    await env.close();
    expect(readTrajectory(log).end?.reason).toBeDefined();
  });
});
