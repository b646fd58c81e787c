// The study store's lock (issue 38 item 2; src/main/io/process-lock.ts): a lock file is created
// with its owner in one step, an ownerless one (what a full disk left behind before) is stale at
// once, and waiting for another process's lock never holds the event loop. Before: an empty lock
// made every store write wait 5 s in Atomics.wait and fail, freezing every other client. The
// serving paths' locks (the store's, the participant session's) are created without a synchronous
// file call on the main thread, and two async takers in one process never both hold a lock.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ProcessLock, ProcessLockBusy, withFileLock } from '../../../src/main/io/process-lock';
import { StudySessions } from '../../../src/main/study/session';
import { StudyStore } from '../../../src/main/study/store';

async function storeWithStudy(): Promise<{ store: StudyStore; studies: string; id: string }> {
  const home = mkdtempSync(join(tmpdir(), 'splatlab-lock-'));
  const store = new StudyStore(home);
  const study = await store.create({ name: 'Locks', tasks: ['t1'], practiceTask: 't0' }, new Set(['t0', 't1']));
  return { store, studies: join(home, 'studies'), id: study.id };
}

describe('the study store lock', () => {
  it('takes over an empty lock at once and loses no write', async () => {
    const { store, studies, id } = await storeWithStudy();
    writeFileSync(join(studies, 'store.lock'), ''); // created, its pid never written (a full disk)
    // Timers stand still: an add that waited on the empty lock (a retry timer) would never answer.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    let p;
    try {
      p = await store.addParticipant(id);
    } finally {
      vi.useRealTimers();
    }
    expect(store.participants(id).map((x) => x.id)).toEqual([p.id]);
    expect(readdirSync(studies).filter((f) => f.startsWith('store.lock'))).toEqual([]);
  });

  it('writes the owner into the lock as it is created, leaving no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-lock-'));
    const lock = ProcessLock.acquire(join(dir, 'a.lock'), 'test lock');
    expect(readFileSync(join(dir, 'a.lock'), 'utf8')).toBe(`${process.pid}\n`);
    expect(readdirSync(dir)).toEqual(['a.lock']);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("waits for another live process's lock without holding the event loop, then writes", async () => {
    const { store, studies, id } = await storeWithStudy();
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      const lockFile = join(studies, 'store.lock');
      writeFileSync(lockFile, `${other.pid}\n`);
      const add = store.addParticipant(id);
      // The event loop turns while the add waits: a timer runs, then the other process lets go.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(store.participants(id)).toEqual([]);
      rmSync(lockFile);
      const p = await add;
      expect(store.participants(id).map((x) => x.id)).toEqual([p.id]);
    } finally {
      other.kill();
    }
  });

  it('refuses in one line when another live process keeps the lock past the wait', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-lock-'));
    mkdirSync(dir, { recursive: true });
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      writeFileSync(join(dir, 'store.lock'), `${other.pid}\n`);
      await expect(withFileLock(join(dir, 'store.lock'), () => 1, 20)).rejects.toThrow(/stayed locked by another lab process \(pid \d+\) for 20 ms; try again/);
    } finally {
      other.kill();
    }
  });
});

describe('locks of the serving paths off the main thread', () => {
  it('the store lock and a process lock are not created before the call returns, but on libuv\'s pool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-lock-'));
    let ran = false;
    const section = withFileLock(join(dir, 'store.lock'), () => {
      ran = existsSync(join(dir, 'store.lock'));
      return 1;
    });
    // A synchronous take would have created the lock and run the section already.
    expect(ran).toBe(false);
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    expect(await section).toBe(1);
    expect(ran).toBe(true);
    const taking = ProcessLock.acquireAsync(join(dir, 'a.lock'), 'test lock');
    expect(existsSync(join(dir, 'a.lock'))).toBe(false);
    const lock = await taking;
    expect(readFileSync(join(dir, 'a.lock'), 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the participant session takes its lock asynchronously, never with the synchronous acquire', async () => {
    const { store, id } = await storeWithStudy();
    const pending = await store.addParticipant(id);
    const sync = vi.spyOn(ProcessLock, 'acquire').mockImplementation(() => {
      throw new Error('a synchronous lock on the main thread');
    });
    try {
      const sessions = new StudySessions(store, {} as never);
      await sessions.start(id, pending.id);
      expect(readFileSync(join(store.root, 'session.lock'), 'utf8')).toBe(`${process.pid}\n`);
      expect(sync).not.toHaveBeenCalled();
    } finally {
      sync.mockRestore();
    }
  });

  it('two async takers of one lock in this process: one holds it, the other is refused; sections run one at a time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-lock-'));
    const path = join(dir, 'a.lock');
    const both = await Promise.allSettled([ProcessLock.acquireAsync(path, 'test lock'), ProcessLock.acquireAsync(path, 'test lock')]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = both.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(ProcessLockBusy);
    expect(String(refused.reason)).toMatch(/test lock is held in this lab process/);
    (both.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<ProcessLock>).value.release();
    expect(readdirSync(dir)).toEqual([]);
    let inside = 0;
    let most = 0;
    const section = (): number => {
      inside += 1;
      most = Math.max(most, inside);
      inside -= 1;
      return most;
    };
    await Promise.all(Array.from({ length: 8 }, () => withFileLock(join(dir, 'store.lock'), section)));
    expect(most).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });
});
