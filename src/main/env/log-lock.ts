// One writer per trajectory (issue 11, docs/DESIGN.md section 14): a log being written has a lock
// file (in the machine's temp folder, named by a hash of the log's real path, so log folders hold
// only logs) naming the writing process; a second writer (another tab's resume, a second
// lab process) is refused with a clear line instead of forking the log. A lock left by a process
// that no longer runs (a crash, kill -9) is stale and is taken over.
// A lock file is created with its pid in one step (src/main/io/process-lock.ts createOwned: a
// temporary file hard-linked to the name), so a full disk leaves no lock rather than an empty one;
// an episode start takes it off the event loop (acquireAsync, issue 38 item 1).
// Input: the log path. Output: a held lock (release() removes it). Invariant: while a lock is held
// by a live process, no other LogLock on the same path can be acquired, in this process or another.
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { logTempFile } from '../io/log-temp';
import { createOwned, createOwnedAsync, lockHolder, lockHolderAsync, processAlive } from '../io/process-lock';

/** Where the lock of a log lives (one folder per machine user, shared by every lab process). */
export function lockPathOf(logPath: string): string {
  return logTempFile(logPath, 'locks', 'lock');
}

export class LogInUseError extends Error {
  override name = 'LogInUseError';
}

/** Locks held by this process, by log path (a second writer here is refused too). */
const held = new Set<string>();

/** The lock's path, marked held in this process; refused when this process holds it already. */
function reserve(logPath: string): string {
  const lockPath = lockPathOf(logPath);
  if (held.has(lockPath)) throw new LogInUseError('this episode is open elsewhere in this lab (another tab or window is playing it); close it there first');
  held.add(lockPath);
  return lockPath;
}

/** Throws when the lock names another live process; a dead or missing holder (or an empty file) is stale. */
function refuseLive(pid: number): void {
  if (pid !== 0 && processAlive(pid) && pid !== process.pid) throw new LogInUseError(`this episode is open elsewhere (another lab process, pid ${pid}, is writing its log); close it there first`);
}

export class LogLock {
  private released = false;

  private constructor(readonly path: string) {}

  static acquire(logPath: string): LogLock {
    const lockPath = reserve(logPath);
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        if (createOwned(lockPath)) return new LogLock(lockPath);
        refuseLive(lockHolder(lockPath));
        rmSync(lockPath, { force: true });
      }
    } catch (error) {
      held.delete(lockPath);
      throw error;
    }
    held.delete(lockPath);
    throw new LogInUseError('the log lock could not be taken; try again');
  }

  /** acquire() with the lock file created, read and removed on libuv's pool (an episode start). */
  static async acquireAsync(logPath: string): Promise<LogLock> {
    // Reserved here before the first await: a second start of the same log in this process is refused.
    const lockPath = reserve(logPath);
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await createOwnedAsync(lockPath)) return new LogLock(lockPath);
        refuseLive(await lockHolderAsync(lockPath));
        await rm(lockPath, { force: true });
      }
    } catch (error) {
      held.delete(lockPath);
      throw error;
    }
    held.delete(lockPath);
    throw new LogInUseError('the log lock could not be taken; try again');
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    held.delete(this.path);
    rmSync(this.path, { force: true });
  }
}
