// The process's queue of deferred hidden grades (docs/PERFORMANCE.md, "The hidden grade yields").
// Grades run one at a time and yield to player calls: a grade starts only when no LabApi call is
// in flight (or after MAX_WAIT_MS, so grades never starve) and after the event loop has served
// what was waiting (setImmediate); a call that begins while a grade runs preempts it (its signal
// aborts, the grade stops dispatching work and is run again at the next idle moment, keeping the
// views it finished: GradeOptions.done), at most MAX_PREEMPTIONS times per grade, after which it
// runs to its end. The grader runs a deferred grade one view at a time, its pool jobs as
// background jobs (WorkerPool `background`), so a player's job never queues behind it. A caller that needs the grades now (an episode's end
// record waits for its step grades) calls hurry(): what is queued then runs without waiting and
// without being preempted.
// Input: grade jobs taking an AbortSignal; the lab's services report calls starting and ending
// through the context's CallActivity (both are owned by the LabContext, src/main/services/context.ts).
// Output: job results, in submission order. Invariant: a failed job rejects its own promise
// only; the queue goes on; a preempted job is run again until it settles (its own `done` keeps
// what is finished).

/** Longest a queued grade waits for an idle moment before it runs anyway. */
export const MAX_WAIT_MS = 2000;
/** Times one grade gives way to a player's call before it runs to its end regardless. */
export const MAX_PREEMPTIONS = 3;

/** Calls in flight in this process (dispatch counts them). */
export class CallActivity {
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly beginListeners = new Set<() => void>();

  begin(): () => void {
    this.inFlight += 1;
    for (const l of [...this.beginListeners]) l();
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

  /** Calls `listener` whenever a call begins, until the returned function is called. */
  onBegin(listener: () => void): () => void {
    this.beginListeners.add(listener);
    return () => this.beginListeners.delete(listener);
  }

  /** Resolves when no call is in flight, or after `maxMs`, or when `wake` is called. */
  idle(maxMs: number, wake?: { now?: () => void }): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      this.idleWaiters.push(done);
      if (wake) wake.now = done;
    });
  }
}

/** One queued grade's state, as hurry() and the preemption see it. */
interface Entry {
  urgent: boolean;
  /** Ends the entry's wait for an idle moment (set while it waits). */
  wake: { now?: () => void };
}

export class GradeQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private readonly entries = new Set<Entry>();
  private preemptionCount = 0;

  constructor(private readonly activity: CallActivity) {}

  /** Jobs queued or running. */
  get pending(): number {
    return this.waiting;
  }

  /** Grades stopped so far to let a player's call go first (each was run again later). */
  get preemptions(): number {
    return this.preemptionCount;
  }

  /** Every grade queued or running now runs at once and to its end (someone waits for it). */
  hurry(): void {
    for (const e of this.entries) {
      e.urgent = true;
      e.wake.now?.();
    }
  }

  run<T>(job: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.waiting += 1;
    const entry: Entry = { urgent: false, wake: {} };
    this.entries.add(entry);
    const result = this.tail.then(() => this.attempt(job, entry));
    const settle = (): void => {
      this.waiting -= 1;
      this.entries.delete(entry);
    };
    this.tail = result.then(settle, settle);
    return result;
  }

  private async attempt<T>(job: (signal: AbortSignal) => Promise<T>, entry: Entry): Promise<T> {
    for (let preempted = 0; ; preempted++) {
      if (!entry.urgent) {
        await this.activity.idle(MAX_WAIT_MS, entry.wake);
        entry.wake.now = undefined;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const control = new AbortController();
      const yields = !entry.urgent && preempted < MAX_PREEMPTIONS;
      // hurry() during the run makes it urgent: from then on it no longer yields.
      const stop = yields ? this.activity.onBegin(() => entry.urgent || control.abort()) : () => false;
      try {
        return await job(control.signal);
      } catch (err) {
        if (!control.signal.aborted) throw err;
        this.preemptionCount += 1;
      } finally {
        stop();
      }
    }
  }
}

/** A process's deferred grades and the calls they yield to (the agent doors: MCP, RL). */
export interface DeferredGrades {
  queue: GradeQueue;
  activity: CallActivity;
}

export function deferredGrades(): DeferredGrades {
  const activity = new CallActivity();
  return { queue: new GradeQueue(activity), activity };
}
