// One call's synchronous start per event-loop turn (issue 29 item 1, docs/PERFORMANCE.md
// "Event-loop delay under load"): frames that arrive together (16 clients each sending a call in
// the same poll phase) would otherwise all be parsed, checked and started in one turn, so a timer
// or a reply ready meanwhile waits for all of them. Each queued start runs in its own check phase
// (a setImmediate queued from inside one runs on the next turn), so timers and I/O get a turn
// between two starts.
// Input: thunks in arrival order. Invariant: thunks run one per turn, in the order given (a
// connection's calls keep their order); a thunk that throws does not stop the queue.
export class TurnQueue {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Queues `start`; it runs on a later turn of the event loop, after every thunk queued before it. */
  push(start: () => void): void {
    this.waiting.push(start);
    this.schedule();
  }

  get length(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const start = this.waiting.shift();
      try {
        start?.();
      } finally {
        this.schedule();
      }
    });
  }
}
