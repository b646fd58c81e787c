// One writer per trajectory (issue 11, docs/DESIGN.md section 14): a log being written has a lock
// file (in the machine's temp folder, named by a hash of the log's real path, so log folders hold
// only logs) naming the writing process; a second writer (another tab's resume, a second
// lab process) is refused with a clear line instead of forking the log. A lock left by a process
// that no longer runs (a crash, kill -9) is stale and is taken over.
// Input: the log path. Output: a held lock (release() removes it). Invariant: while a lock is held
// by a live process, no other LogLock on the same path can be acquired, in this process or another.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { logTempFile } from '../io/log-temp';
import { processAlive } from '../io/process-lock';

/** Where the lock of a log lives (one folder per machine user, shared by every lab process). */
export function lockPathOf(logPath: string): string {
  return logTempFile(logPath, 'locks', 'lock');
}

export class LogInUseError extends Error {
  override name = 'LogInUseError';
}

/** Locks held by this process, by log path (a second writer here is refused too). */
const held = new Set<string>();

export class LogLock {
  private released = false;

  private constructor(readonly path: string) {}

  static acquire(logPath: string): LogLock {
    const lockPath = lockPathOf(logPath);
    if (held.has(lockPath)) throw new LogInUseError('this episode is open elsewhere in this lab (another tab or window is playing it); close it there first');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
        held.add(lockPath);
        return new LogLock(lockPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        let pid = 0;
        try {
          pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
        } catch {
          pid = 0;
        }
        if (processAlive(pid) && pid !== process.pid) throw new LogInUseError(`this episode is open elsewhere (another lab process, pid ${pid}, is writing its log); close it there first`);
        // Stale: its writer is gone (or was this process before a restart of the same pid).
        rmSync(lockPath, { force: true });
      }
    }
    throw new LogInUseError('the log lock could not be taken; try again');
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    held.delete(this.path);
    rmSync(this.path, { force: true });
  }
}
