// The last sign of a page, kept beside (not in) an episode's log (issue 24 item 2; docs/STUDIES.md
// "Time"): each heartbeat overwrites one small file with its arrival time, so after a kill -9 the
// downtime runs from the last heartbeat before the crash, not from the last call. One file per
// log (named by a hash of its real path, in the machine user's temp folder, like the log locks),
// so the log grows by nothing between calls and the data folders hold no sidecars.
// Inputs: the log path, epoch ms. Output: the file; readAlive() gives the time back or null.
// Invariant: a write is one small synchronous overwrite without fsync (it survives the lab
// process being killed, which is what it is for; after a machine crash the log's last record
// stands in); a missing or unreadable file is null, never an error.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { logTempFile } from '../io/log-temp';

function alivePathOf(logPath: string): string {
  return logTempFile(logPath, 'alive', 'alive');
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
