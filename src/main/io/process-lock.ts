// Locks across lab processes on one home (issue 29 item 7, docs/SECURITY.md "Locks across
// processes"), built like the trajectory lock (src/main/env/log-lock.ts): a lock is a file created
// exclusively ('wx') that names the holding process; a file whose process no longer runs (a crash,
// kill -9) is stale and is taken over. Two shapes:
// - `ProcessLock.acquire(path)`: held for as long as something lasts (a participant's live
//   session); a second holder in another process gets ProcessLockBusy with the pid (in this
//   process too, unless the lock is `shared` here: then the file goes with the last release).
// - `withFileLock(path, work)`: a short critical section (a read-modify-write of the study store),
//   waited for (a few seconds at most, asynchronously: the event loop goes on serving other
//   clients meanwhile) rather than refused.
// A lock file is created with its owner in one step (issue 38 item 2): the pid is written to a
// temporary file that is then hard-linked to the lock's name (link fails when the name exists),
// so a full disk leaves no lock at all rather than an empty one that others wait on; a lock file
// without a pid (left by an older writer) is stale at once. createOwnedAsync does the same off the
// event loop (the trajectory lock of an episode start, src/main/env/log-lock.ts); the serving
// paths take their locks that way too (ProcessLock.acquireAsync: the participant session;
// withFileLock: the study store), so no lock is created or waited on synchronously on the main
// thread. Within this process those async takers of one path go one at a time (`turns`), so two
// of them never both see the other's fresh file as their own stale one.
// Invariant: while a live process holds a lock file, no other acquire of the same path succeeds.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KeyTurns } from './key-turns';

export class ProcessLockBusy extends Error {
  override name = 'ProcessLockBusy';
  constructor(
    message: string,
    readonly pid: number,
  ) {
    super(message);
  }
}

/** Lock files held by this process. */
const held = new Set<string>();
/** Holders in this process of each shared lock. */
const sharers = new Map<string, number>();

export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file's text names (0: none). */
const pidOf = (text: string): number => Number.parseInt(text, 10) || 0;

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The pid a lock file names (0 when it is missing or unreadable). */
export function lockHolder(path: string): number {
  try {
    return pidOf(readFileSync(path, 'utf8'));
  } catch {
    return 0;
  }
}

/** Creates `path` already naming this process, or returns false when it exists. */
export function createOwned(path: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    writeFileSync(temp, `${process.pid}\n`, { flag: 'wx' });
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * createOwned off the event loop (libuv's thread pool: an episode start holds no other client for
 * the file system, issue 38 item 1): the same temporary file hard-linked to the lock's name.
 */
export async function createOwnedAsync(path: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(temp, `${process.pid}\n`, { flag: 'wx' });
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/** The pid a lock file names (0 when it is missing or unreadable), read off the event loop. */
export async function lockHolderAsync(path: string): Promise<number> {
  try {
    return pidOf(await readFile(path, 'utf8'));
  } catch {
    return 0;
  }
}

/** One try: true when this process now holds `path`; the live holder's pid otherwise. */
function tryTake(path: string): true | number {
  if (held.has(path)) return process.pid;
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createOwned(path)) {
      held.add(path);
      return true;
    }
    let pid: number;
    try {
      pid = pidOf(readFileSync(path, 'utf8'));
    } catch (error) {
      // Released since the create failed: try again and remove nothing (the name may be another's by now).
      if (isMissing(error)) continue;
      pid = 0;
    }
    if (pid !== 0 && processAlive(pid) && pid !== process.pid) return pid;
    // Stale: its holder is gone, or it names nobody (created whole, a lock always names its owner).
    rmSync(path, { force: true });
  }
  return lockHolder(path);
}

/** tryTake off the event loop; the caller holds the path's in-process turn. */
async function tryTakeAsync(path: string): Promise<true | number> {
  if (held.has(path)) return process.pid;
  await mkdir(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await createOwnedAsync(path)) {
      held.add(path);
      return true;
    }
    let pid: number;
    try {
      pid = pidOf(await readFile(path, 'utf8'));
    } catch (error) {
      // Released since the create failed: try again and remove nothing (another process may have
      // taken the name meanwhile, and its fresh lock must not be removed as stale).
      if (isMissing(error)) continue;
      pid = 0;
    }
    if (pid !== 0 && processAlive(pid) && pid !== process.pid) return pid;
    await rm(path, { force: true });
  }
  return lockHolderAsync(path);
}

/** withFileLock sections running now (their synchronous work): a call from inside one re-enters. */
const sections = new Set<string>();

/** This process's async takers of each path, one at a time. */
const turns = new KeyTurns();

export class ProcessLock {
  private released = false;

  private constructor(readonly path: string) {}

  /**
   * Takes the lock or throws ProcessLockBusy naming the holder; `what` starts the message.
   * `shared`: other holders in this process get it too (a service rebuilt over the same home).
   */
  static acquire(path: string, what: string, opts: { shared?: boolean } = {}): ProcessLock {
    const count = sharers.get(path);
    if (opts.shared && count !== undefined && held.has(path)) {
      sharers.set(path, count + 1);
      return new ProcessLock(path);
    }
    const got = tryTake(path);
    if (got !== true) {
      const where = got === process.pid ? 'in this lab process' : got > 0 ? `in another lab process (pid ${got})` : 'in another lab process';
      throw new ProcessLockBusy(`${what} is held ${where}`, got);
    }
    if (opts.shared) sharers.set(path, 1);
    return new ProcessLock(path);
  }

  /** acquire() off the event loop: the lock file created, read and removed on libuv's pool. */
  static acquireAsync(path: string, what: string, opts: { shared?: boolean } = {}): Promise<ProcessLock> {
    return turns.run(path, async () => {
      const count = sharers.get(path);
      if (opts.shared && count !== undefined && held.has(path)) {
        sharers.set(path, count + 1);
        return new ProcessLock(path);
      }
      const got = await tryTakeAsync(path);
      if (got !== true) {
        const where = got === process.pid ? 'in this lab process' : got > 0 ? `in another lab process (pid ${got})` : 'in another lab process';
        throw new ProcessLockBusy(`${what} is held ${where}`, got);
      }
      if (opts.shared) sharers.set(path, 1);
      return new ProcessLock(path);
    });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    const count = sharers.get(this.path);
    if (count !== undefined && count > 1) {
      sharers.set(this.path, count - 1);
      return;
    }
    sharers.delete(this.path);
    held.delete(this.path);
    rmSync(this.path, { force: true });
  }
}

/**
 * Runs `work` holding `lockPath`, waiting up to `waitMs` for another process's short critical
 * section to end. The lock is taken and the wait done asynchronously (never Atomics.wait, never a
 * synchronous create on the main thread); sections of this process run one after another, and
 * `work` itself is synchronous (a read and a whole-file write), so nothing interleaves it.
 */
export async function withFileLock<T>(lockPath: string, work: () => T, waitMs = 5000): Promise<T> {
  if (sections.has(lockPath)) return work(); // re-entered from inside the same section
  return turns.run(lockPath, async () => {
    const deadline = Date.now() + waitMs;
    let got = await tryTakeAsync(lockPath);
    while (got !== true) {
      if (Date.now() > deadline) throw new ProcessLockBusy(`the store stayed locked by another lab process${got > 0 ? ` (pid ${got})` : ''} for ${waitMs} ms; try again`, got);
      await new Promise((resolve) => setTimeout(resolve, 5));
      got = await tryTakeAsync(lockPath);
    }
    sections.add(lockPath);
    try {
      return work();
    } finally {
      sections.delete(lockPath);
      held.delete(lockPath);
      rmSync(lockPath, { force: true });
    }
  });
}
