// Exactly-once calls (docs/SECURITY.md, "Exactly-once calls"): the results of one episode's calls
// by client request id. A call with a new id runs; a retry with a known id (running or done) gets
// the same result without running again, so nothing is charged twice; a call that failed with
// nothing charged (a failed log write) forgets its id, so its retry runs. After a restart the
// ledger is rebuilt from the log (each step record carries its request_id), so the text and the
// StepInfo of every logged call come back; images are kept for the latest calls only, in memory.
// Inputs: request ids, the step function. Output: ToolOut (recalled ones marked `recalled`).
import type { ToolOut } from './tool-out';

/** Calls whose images the ledger keeps (older recalled results carry their text and info only). */
export const KEEP_IMAGES = 32;

export class RequestLedger {
  private readonly results = new Map<string, Promise<ToolOut>>();
  private readonly imaged: string[] = [];

  /** A call of the log (a resume): its logged text and replayed outcome. */
  remember(requestId: string, out: ToolOut): void {
    this.results.set(requestId, Promise.resolve(out));
  }

  /** Runs `call` once per id; without an id, always. */
  run(requestId: string | undefined, call: () => Promise<ToolOut>): Promise<ToolOut> {
    if (requestId === undefined) return call();
    const known = this.recall(requestId);
    if (known) return known;
    const running = call();
    this.results.set(requestId, running);
    running.then(
      (out) => this.keepImage(requestId, out),
      () => this.results.delete(requestId),
    );
    return running;
  }

  /** The stored result of a call (awaiting it while it runs), or null when the id is unknown. */
  recall(requestId: string): Promise<ToolOut> | null {
    const known = this.results.get(requestId);
    return known ? known.then((out) => ({ ...out, recalled: true })) : null;
  }

  private keepImage(requestId: string, out: ToolOut): void {
    if (!out.image) return;
    this.imaged.push(requestId);
    const old = this.imaged.length > KEEP_IMAGES ? this.imaged.shift() : undefined;
    const entry = old === undefined ? undefined : this.results.get(old);
    if (old !== undefined && entry) {
      this.results.set(
        old,
        entry.then(({ image: _image, ...rest }) => rest),
      );
    }
  }
}
