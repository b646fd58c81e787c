// The default queue: every job of the run in this process, at most `concurrency` episodes at
// once, a broken episode retried (resumed from its log) up to `attempts` times.
// Inputs: jobs, worker context, limits, a progress callback. Output: one outcome per job (or
// its last error). Invariant: finished jobs are skipped without touching their files.
import type { EpisodeJobData } from './plan';
import { executeJob, type EpisodeOutcome, type WorkerContext } from './execute';
import type { KindTask } from '../kinds/kind';

export interface EmbeddedOptions {
  concurrency: number;
  attempts?: number;
  onProgress?: (done: number, total: number, job: EpisodeJobData, outcome: EpisodeOutcome | Error) => void;
}

export async function runEmbedded(jobs: readonly EpisodeJobData[], ctx: WorkerContext, opts: EmbeddedOptions): Promise<(EpisodeOutcome | Error)[]> {
  const results: (EpisodeOutcome | Error)[] = new Array(jobs.length);
  const tasks = new Map<string, KindTask>();
  let next = 0;
  let done = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length && !ctx.signal?.aborted) {
      const i = next++;
      let outcome: EpisodeOutcome | Error = new Error('not run');
      const startedAt = Date.now();
      for (let a = 0; a < (opts.attempts ?? 2); a++) {
        try {
          outcome = await executeJob(jobs[i], ctx, tasks, { redelivered: a > 0, startedAt });
          break;
        } catch (e) {
          outcome = e as Error;
          if (ctx.signal?.aborted) break;
        }
      }
      results[i] = outcome;
      opts.onProgress?.(++done, jobs.length, jobs[i], outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, jobs.length)) }, lane));
  return results;
}
