// The one per-log temp file (src/main/io/log-temp.ts) behind the trajectory lock and the
// heartbeat mark: one file per log, whichever path names it (relative, through a symlink, not
// written yet), apart per purpose, and never in the log's own folder.
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logTempFile } from '../../../src/main/io/log-temp';
import { lockPathOf } from '../../../src/main/env/log-lock';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-logtemp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('logTempFile', () => {
  it('names one file per log, by its real path, outside the log folder', () => {
    const log = join(dir, 'a.jsonl');
    const unwritten = logTempFile(log, 'test', 'mark');
    writeFileSync(log, '');
    symlinkSync(log, join(dir, 'link.jsonl'));
    const f = logTempFile(log, 'test', 'mark');
    expect(f).toBe(unwritten);
    expect(logTempFile(join(dir, 'link.jsonl'), 'test', 'mark')).toBe(f);
    expect(logTempFile(relative(process.cwd(), log), 'test', 'mark')).toBe(f);
    expect(existsSync(dirname(f))).toBe(true);
    expect(dirname(f)).not.toBe(dir);
    expect(basename(f)).toMatch(/^[0-9a-f]{32}\.mark$/);
    expect(logTempFile(join(dir, 'b.jsonl'), 'test', 'mark')).not.toBe(f);
  });

  it('keeps each purpose in its own folder (the lock is one of them)', () => {
    const log = join(dir, 'a.jsonl');
    const lock = lockPathOf(log);
    expect(basename(dirname(lock))).toMatch(/^splatlab-locks-/);
    expect(lock.endsWith('.lock')).toBe(true);
    expect(dirname(logTempFile(log, 'alive', 'alive'))).not.toBe(dirname(lock));
    expect(basename(logTempFile(log, 'alive', 'alive'), '.alive')).toBe(basename(lock, '.lock'));
  });
});
