// Splat files decoded off the event loop (issue 29 items 1 and 8): readSplatFile as a 'format.read'
// job of the lab's worker pool, on a thread of its own with V8 resource limits, so a file that
// slips past the header budgets ends that thread only and the caller gets one line.
// Input: the pool and the caller's queue. Output: a read function with readSplatFile's shape.
// Invariant: the same SplatFile as readSplatFile on this thread (one reader), errors as its lines.
import type { ResourceLimits } from 'node:worker_threads';
import type { ReadSplatOptions, SplatFile } from '../formats/read';
import { JobCancelled, JobFailed, type WorkerPool } from './pool';

/** Heap limits of a decoding thread: the decoded arrays live outside the heap and are budgeted by the reader. */
export const DECODE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };

export type SplatReader = (path: string, opts?: ReadSplatOptions) => Promise<SplatFile>;

export function splatReader(pool: WorkerPool, client: string): SplatReader {
  return async (path, opts = {}) => {
    const { onProgress, signal, ...plain } = opts;
    try {
      return await pool.run('format.read', { path, ...plain }, {
        client,
        limits: DECODE_LIMITS,
        ...(signal ? { signal } : {}),
        ...(onProgress ? { onProgress: (p) => onProgress({ phase: (p.message ?? 'decode') as 'read' | 'inflate' | 'decode', done: p.done, total: p.total }) } : {}),
      });
    } catch (error) {
      if (error instanceof JobCancelled) throw new Error(`${path}: cancelled`);
      // The worker's line is already readSplatFile's "<path>: <format>: <what>" (or why the thread stopped).
      if (error instanceof JobFailed && !error.message.startsWith(path)) throw new Error(`${path}: ${error.message}`);
      throw error;
    }
  };
}
