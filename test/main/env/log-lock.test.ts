// One writer per trajectory (src/main/env/log-lock.ts): a second writer of a live log is refused
// before anything is truncated, in this process and from another live process; a lock left by a
// dead process (kill -9) is taken over; closing the writer frees the log.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogInUseError, LogLock, lockPathOf } from '../../../src/main/env/log-lock';
import { TrajectoryWriter } from '../../../src/main/env/trajectory';

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
});
