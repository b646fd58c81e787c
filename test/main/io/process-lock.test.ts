// The study store's lock (issue 38 item 2; src/main/io/process-lock.ts): a lock file is created
// with its owner in one step, an ownerless one (what a full disk left behind before) is stale at
// once, and waiting for another process's lock never holds the event loop. Before: an empty lock
// made every store write wait 5 s in Atomics.wait and fail, freezing every other client.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProcessLock, withFileLock } from '../../../src/main/io/process-lock';
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
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    const p = await store.addParticipant(id);
    clearInterval(ticker);
    expect(turns).toBe(0); // answered before a single timer turn: nothing waited on the empty lock
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
