// Messages between the worker pool (pool.ts, main thread) and its workers (pool-worker.ts), and
// the context a job handler runs with. Input/output: plain structured-clone data only.
// Invariant: a worker runs one job at a time; every 'run' gets exactly one 'done' or 'error'
// reply with its job number (or the worker dies, which the pool reports for that job).

/** What a job handler may use besides its input (worker side). */
export interface JobContext {
  /** Reports progress to the caller's onProgress (throttling is the caller's business). */
  progress(done: number, total: number, message?: string): void;
  /** Data sent once per worker with `resident` (pool.ts) and kept there until forgotten. */
  resident<T>(key: string): T;
  /** Hands these buffers of the result over instead of copying them (they must be fresh). */
  transfer(...buffers: ArrayBufferLike[]): void;
}

export type ToWorker =
  | { type: 'run'; job: number; kind: string; input: unknown }
  | { type: 'resident'; key: string; value: unknown }
  | { type: 'forget'; key: string };

export type FromWorker =
  | { type: 'progress'; job: number; done: number; total: number; message?: string }
  | { type: 'done'; job: number; value: unknown }
  | { type: 'error'; job: number; message: string };

/** The first line of an error's message, without a stack: what a caller is shown. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n').find((l) => l.trim().length > 0) ?? '';
  return line.trim() || 'failed';
}
