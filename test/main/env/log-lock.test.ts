// One writer per trajectory (src/main/env/log-lock.ts): a second writer of a live log is refused
// before anything is truncated, in this process and from another live process; a lock left by a
// dead process (kill -9) or without a pid is taken over; closing the writer frees the log. An
// episode start's lock (acquireAsync, TrajectoryWriter.start) is created off the event loop with its
// owner in one step and refuses a concurrent second start of the same log.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogInUseError, LogLock, lockPathOf } from '../../../src/main/env/log-lock';
import { readTrajectory, TrajectoryWriter } from '../../../src/main/env/trajectory';

const header = { type: 'header' as const, task: 't', protocol: 'matched' as const, player: 'p', versions: {}, started: '2026-01-01T00:00:00Z' };
const dir = (): string => mkdtempSync(join(tmpdir(), 'splatlab-lock-'));

describe('one writer per trajectory', () => {
  it('refuses a second writer of a live log in this process and frees it on close', () => {
    const log = join(dir(), 'a.jsonl');
    const w = TrajectoryWriter.create(log, header);
    w.write({ step: 0, tool: 'reset', args: {}, text: 'x', t: '', ms: 0 });
    const before = readFileSync(log, 'utf8');
    expect(() => TrajectoryWriter.resume(log, 0)).toThrow(LogInUseError);
    expect(() => TrajectoryWriter.resume(log, 0)).toThrow(/open elsewhere in this lab/);
    expect(readFileSync(log, 'utf8')).toBe(before); // nothing truncated
    w.close();
    expect(existsSync(lockPathOf(log))).toBe(false);
    const again = TrajectoryWriter.resume(log, Buffer.byteLength(before));
    again.close();
  });

  it('refuses while another live process holds the lock, and takes over a dead one\'s', async () => {
    const log = join(dir(), 'b.jsonl');
    writeFileSync(log, '');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      writeFileSync(lockPathOf(log), `${other.pid}\n`);
      expect(() => LogLock.acquire(log)).toThrow(new RegExp(`another lab process, pid ${other.pid}`));
    } finally {
      other.kill('SIGKILL');
      await new Promise((r) => other.once('exit', r));
    }
    const lock = LogLock.acquire(log); // the writer is gone: the stale lock is taken over
    expect(readFileSync(lockPathOf(log), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('creates an episode start\'s lock off the event loop, naming its owner, once per log', async () => {
    const log = join(dir(), 'c.jsonl');
    const lockPath = lockPathOf(log);
    const taking = LogLock.acquireAsync(log);
    const second = LogLock.acquireAsync(log);
    // Nothing is on disk yet: the file is made on libuv's pool, after this synchronous part.
    expect(existsSync(lockPath)).toBe(false);
    await expect(second).rejects.toThrow(/open elsewhere in this lab/);
    const lock = await taking;
    expect(readFileSync(lockPath, 'utf8')).toBe(`${process.pid}\n`);
    // Made whole under a temporary name and linked: no temporary file stays beside it.
    expect(readdirSync(dirname(lockPath)).filter((f) => f.startsWith(`${basename(lockPath)}.`))).toEqual([]);
    expect(() => LogLock.acquire(log)).toThrow(LogInUseError);
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
    const w = await TrajectoryWriter.start(log, header);
    await expect(TrajectoryWriter.start(log, header)).rejects.toThrow(LogInUseError);
    w.close();
    expect(readTrajectory(log).header).toMatchObject({ task: 't' });
  });

  it('takes over a lock file that names no process (an empty one), sync and async', async () => {
    const log = join(dir(), 'd.jsonl');
    writeFileSync(lockPathOf(log), '');
    const lock = await LogLock.acquireAsync(log);
    expect(readFileSync(lockPathOf(log), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    writeFileSync(lockPathOf(log), '');
    LogLock.acquire(log).release();
  });
});
