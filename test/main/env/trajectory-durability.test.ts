// Durability of the trajectory writer: node:fs is wrapped (vi.mock) so the test sees every write
// and fsync the writer makes. Each record must be written and then fsynced on the same file
// descriptor before write() returns, and a resume must fsync the truncation before appending.
// Removing or reordering the fsync in TrajectoryWriter fails this test.
import { beforeEach, describe, expect, it, vi } from 'vitest';

type FsModule = typeof import('node:fs');
const events: { op: 'write' | 'fsync' | 'ftruncate'; fd: number; text?: string }[] = [];

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
  };
  return { ...wrapped, default: wrapped };
});

// The unit suite's setup (test/helpers/lab-kinds.ts) may already have loaded the writer with the
// real node:fs; a fresh module graph makes this import bind to the wrapped one.
vi.resetModules();
const { readTrajectory, TrajectoryWriter } = await import('../../../src/main/env/trajectory');
const { tmpLog } = await import('./fixtures');

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
