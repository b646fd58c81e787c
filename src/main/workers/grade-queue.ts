// The process's queue of deferred hidden grades. Grades run one at a time and at low priority:
// a grade starts only when no LabApi call is in flight (or after MAX_WAIT_MS, so grades never
// starve), and only after the event loop has served what was waiting (setImmediate). So a tool
// call's answer never waits behind queued grades, at worst behind the one already running.
// Input: grade jobs; the lab's services report calls starting and ending through the context's
// CallActivity (both are owned by the LabContext, src/main/services/context.ts).
// Output: job results, in submission order. Invariant: a failed job rejects its own promise
// only; the queue goes on.

/** Longest a queued grade waits for an idle moment before it runs anyway. */
export const MAX_WAIT_MS = 2000;

/** Calls in flight in this process (dispatch counts them). */
export class CallActivity {
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  begin(): () => void {
    this.inFlight += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    };
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** Resolves when no call is in flight, or after `maxMs`. */
  idle(maxMs: number): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export class GradeQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly activity: CallActivity) {}

  /** Jobs queued or running. */
  get pending(): number {
    return this.waiting;
  }

  run<T>(job: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    const result = this.tail.then(async () => {
      await this.activity.idle(MAX_WAIT_MS);
      await new Promise<void>((resolve) => setImmediate(resolve));
      return job();
    });
    const settle = (): void => {
      this.waiting -= 1;
    };
    this.tail = result.then(settle, settle);
    return result;
  }
}

