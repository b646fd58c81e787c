// One async task at a time per key, in call order (the lab's serving paths: a lock path's async
// takers in src/main/io/process-lock.ts, a process-event stream's appends in
// src/main/episodes/process-writer.ts). Input: a key and the work. Output: the work's own promise.
// Invariant: a failed task never stops the ones queued behind it; a key whose queue emptied is
// forgotten, so the table holds only keys with work pending.
export class KeyTurns {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` once every earlier task of `key` has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }
}
