// Per-connection limits of the WebSocket transport: a token bucket for the message rate and a cap
// on calls in flight. Inputs: a clock (ms). Output: admit() says whether one more call may start.
// Invariant: a refused call runs no handler (it is answered `rate_limited` at once), so one noisy
// client cannot queue unbounded work or starve the others.

export interface LimitOptions {
  /** Sustained calls per second. */
  ratePerSecond: number;
  /** Calls allowed in one burst above the rate. */
  burst: number;
  /** Calls of this connection running at once. */
  maxInFlight: number;
}

export const DEFAULT_LIMITS: LimitOptions = { ratePerSecond: 200, burst: 400, maxInFlight: 16 };

export type Admission = { ok: true; done: () => void } | { ok: false; reason: string };

export class ConnectionLimits {
  private tokens: number;
  private last: number;
  private inFlight = 0;

  constructor(
    private readonly opts: LimitOptions = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = opts.burst;
    this.last = now();
  }

  admit(): Admission {
    const t = this.now();
    this.tokens = Math.min(this.opts.burst, this.tokens + ((t - this.last) / 1000) * this.opts.ratePerSecond);
    this.last = t;
    if (this.inFlight >= this.opts.maxInFlight) return { ok: false, reason: `more than ${this.opts.maxInFlight} calls in flight on this connection; wait for answers` };
    if (this.tokens < 1) return { ok: false, reason: `more than ${this.opts.ratePerSecond} calls per second on this connection; slow down` };
    this.tokens -= 1;
    this.inFlight += 1;
    let released = false;
    return {
      ok: true,
      done: () => {
        if (!released) this.inFlight -= 1;
        released = true;
      },
    };
  }
}
