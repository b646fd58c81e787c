// A call that is charged at most once and whose outcome is always learnt (docs/SECURITY.md,
// "Exactly-once calls"): the client side of request ids. The call is sent with its id; when the
// reply is lost (a dropped connection, a failed write that charged nothing) the client waits,
// asks for the stored result of that id, and sends the call again (same id) only when the server
// never received it. Used by the lab's page (episode.step) and the eval runners.
// Inputs: send (the call with its id), ask (the stored result or null), which errors are worth a
// retry. Output: the call's one result. Invariant: every send carries the same id, so however
// often it is sent, the server charges it once.

export interface ExactlyOnceOptions {
  /** Whether an error means "the outcome is not known yet" (else it is thrown at once). */
  retryable: (error: unknown) => boolean;
  /** Tries after the first send (each one: wait, ask, maybe send again). */
  attempts?: number;
  /** Wait before try n (0-based); default 250 ms doubling up to 4 s. */
  delayMs?: (attempt: number) => number;
  wait?: (ms: number) => Promise<void>;
}

const defaultDelay = (attempt: number): number => Math.min(4000, 250 * 2 ** attempt);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A fresh request id (random, printable). */
export function newRequestId(): string {
  return globalThis.crypto.randomUUID();
}

export async function exactlyOnce<T>(send: () => Promise<T>, ask: () => Promise<T | null>, options: ExactlyOnceOptions): Promise<T> {
  const attempts = options.attempts ?? 12;
  const delay = options.delayMs ?? defaultDelay;
  const wait = options.wait ?? sleep;
  let last: unknown;
  try {
    return await send();
  } catch (error) {
    if (!options.retryable(error)) throw error;
    last = error;
  }
  for (let attempt = 0; attempt < attempts; attempt++) {
    await wait(delay(attempt));
    try {
      const stored = await ask();
      if (stored !== null) return stored;
      return await send();
    } catch (error) {
      if (!options.retryable(error)) throw error;
      last = error;
    }
  }
  throw last;
}
