// How the long-running commands (`serve`, `rl`, `mcp --http`) stop (issue #29 item 11): on SIGINT
// or SIGTERM they close their servers and what the lab owns, but never wait longer than the grace
// time, so the process exits within 2 s of the signal even when a worker, a GPU device or a slow
// client does not let go. Inputs: the command's close function, the grace time. Output: a promise
// that resolves once closed or once the grace time is over (the CLI entry then exits). Invariant:
// every trajectory record is flushed when it is written, so cutting the close short loses nothing.
import type { CliIO } from './command';

export const STOP_GRACE_MS = 1500;

export function untilStopped(close: () => Promise<unknown>, io: CliIO, graceMs = STOP_GRACE_MS, signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      for (const s of signals) process.off(s, stop);
      const timer = setTimeout(() => {
        io.err(`still closing after ${graceMs} ms; exiting anyway (every log record is already on disk)`);
        resolve();
      }, graceMs);
      void Promise.resolve()
        .then(close)
        .catch((e: Error) => io.err(`closing failed: ${e.message}`))
        .finally(() => {
          clearTimeout(timer);
          resolve();
        });
    };
    for (const s of signals) process.once(s, stop);
  });
}
