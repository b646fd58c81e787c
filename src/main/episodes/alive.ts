// The last sign of a page, kept beside (not in) an episode's log (issue 24 item 2; docs/STUDIES.md
// "Time"): each heartbeat overwrites one small file with its arrival time, so after a kill -9 the
// downtime runs from the last heartbeat before the crash, not from the last call. One file per
// log (named by a hash of its real path, in the machine user's temp folder, like the log locks),
// so the log grows by nothing between calls and the data folders hold no sidecars.
// Inputs: the log path, epoch ms. Output: the file; readAlive() gives the time back or null.
// Invariant: a write is one small synchronous overwrite without fsync (it survives the lab
// process being killed, which is what it is for; after a machine crash the log's last record
// stands in); a missing or unreadable file is null, never an error.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

function alivePathOf(logPath: string): string {
  let real = resolve(logPath);
  try {
    real = realpathSync(real);
  } catch {
    // A log not written yet: its resolved path names it.
  }
  const dir = join(tmpdir(), `splatlab-alive-${process.getuid?.() ?? 'user'}`);
  mkdirSync(dir, { recursive: true });
  return join(dir, `${createHash('sha256').update(real).digest('hex').slice(0, 32)}.alive`);
}

export function writeAlive(logPath: string, at: number): void {
  try {
    writeFileSync(alivePathOf(logPath), new Date(at).toISOString());
  } catch {
    // Best effort: without it a crash is counted from the log's last record, as before.
  }
}

export function readAlive(logPath: string): number | null {
  try {
    const t = Date.parse(readFileSync(alivePathOf(logPath), 'utf8'));
    return Number.isFinite(t) ? t : null;
  } catch {
    return null;
  }
}

export function forgetAlive(logPath: string): void {
  rmSync(alivePathOf(logPath), { force: true });
}
