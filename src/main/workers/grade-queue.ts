// The process's queue of deferred hidden grades: one grade at a time, each started only after
// the event loop has served what was waiting (setImmediate), so a tool call's answer never waits
// behind another client's grade, only (at worst) behind the one grade already running.
// Input: grade jobs. Output: their results, in submission order. Invariant: a failed job rejects
// its own promise only; the queue goes on.

export class GradeQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Jobs queued or running. */
  get pending(): number {
    return this.waiting;
  }

  run<T>(job: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    const result = this.tail.then(
      () =>
        new Promise<T>((resolve, reject) => {
          setImmediate(() => {
            job().then(resolve, reject);
          });
        }),
    );
    const settle = (): void => {
      this.waiting -= 1;
    };
    this.tail = result.then(settle, settle);
    return result;
  }
}

/** The queue every deferred grade of this process goes through. */
export const deferredGrades = new GradeQueue();
