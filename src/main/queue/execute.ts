// Runs one episode job wherever it was pulled (the embedded queue or a BullMQ worker): skip it
// when its log has ended, resume it when the log is partial, start it otherwise.
// Inputs: EpisodeJobData and the worker's context (tasks, shared grader, config).
// Output: EpisodeOutcome, the small JSON the aggregating parent collects.
// Invariant: the trajectory is the source of truth: a job counts as done only when its log has
// an end record, so a killed worker's episode is finished exactly once, by whoever resumes it. A
// delivery first claims the episode (a lock file beside the log's own lock, held by one process
// at a time: src/main/io/process-lock.ts) and only then reads the log's state, so a duplicate
// delivery (BullMQ hands a job whose lock lapsed to another worker while the first still plays
// it) waits for the claim and then finds the end record: a no-op (issue 29 item 4). A claim left
// by a killed worker is stale and taken over. The outcome says what this delivery did (issue 37):
// `played` (it made calls), `resumed` (it continued an earlier attempt's log, or it is a
// redelivery of a job taken over from a worker that lost it), `skipped` (the episode had ended
// before the job's first delivery began: nothing of it belongs to this run; a delivery that lost
// its lock and finds the end its successor wrote is neither played nor skipped).
import { lockPathOf } from '../env/log-lock';
import { ProcessLock, ProcessLockBusy } from '../io/process-lock';
import { readTrajectory } from '../env/trajectory';
import type { EnvGrader } from '../env/types';
import type { EvalConfig } from '../models/config';
import { logState, runEpisode } from '../eval/episode';
import { readMeta, metaPathOf, writeMeta } from '../models/meta';
import { episodeSeed, makeClient } from '../models/spec';
import { loadAnyTask } from '../kinds/registry';
import type { KindTask } from '../kinds/kind';
import type { EpisodeJobData } from './plan';

export interface WorkerContext {
  tasksDir: string;
  grader: () => Promise<EnvGrader>;
  config: EvalConfig;
  version?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export interface EpisodeOutcome {
  jobId: string;
  taskId: string;
  run: number;
  /** The episode had ended before this job's first delivery began (a rerun's leftover). */
  skipped: boolean;
  /** Continued an earlier attempt: a partial log, or a job taken over after its worker died or lost its lock. */
  resumed: boolean;
  /** This delivery made the episode's calls (false: it found the end record). */
  played: boolean;
  score: number | null;
  costUsd: number | null;
  wallS: number;
  attempts: number;
}

export function outcomeOf(job: EpisodeJobData, did: Pick<EpisodeOutcome, 'skipped' | 'resumed' | 'played'>): EpisodeOutcome {
  const end = readTrajectory(job.log).end;
  const meta = readMeta(metaPathOf(job.log));
  return { jobId: job.jobId, taskId: job.taskId, run: job.run, ...did, score: end?.score ?? null, costUsd: meta?.cost_usd ?? null, wallS: meta?.wall_s ?? 0, attempts: meta?.attempts ?? 0 };
}

/** Claims the episode of `log`, polling while another delivery (here or in another process) holds it. */
export async function claimEpisode(log: string, signal?: AbortSignal, pollMs = 200): Promise<ProcessLock> {
  const path = `${lockPathOf(log)}.episode`;
  for (;;) {
    try {
      return ProcessLock.acquire(path, `episode ${log}`);
    } catch (error) {
      if (!(error instanceof ProcessLockBusy)) throw error;
      if (signal?.aborted) throw new Error('cancelled');
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }
}

/** One delivery of a job as the queue made it. */
export interface Delivery {
  /** The queue delivered this job before (its worker died, its lock lapsed, or an attempt failed). */
  redelivered: boolean;
  /** When this delivery began (ms): an end record written later was written during the job's life. */
  startedAt: number;
}

/** Runs one delivery of a job (the default: a first delivery starting now). */
export async function executeJob(job: EpisodeJobData, ctx: WorkerContext, tasks = new Map<string, KindTask>(), delivery: Delivery = { redelivered: false, startedAt: Date.now() }): Promise<EpisodeOutcome> {
  const claim = await claimEpisode(job.log, ctx.signal);
  try {
    return await executeClaimed(job, ctx, tasks, delivery);
  } finally {
    claim.release();
  }
}

/**
 * A log with its end record whose meta still says running: its worker died between the two
 * writes. The log decides: the meta is closed as done (under the claim, so no one else writes it).
 */
function settleMeta(job: EpisodeJobData): void {
  const path = metaPathOf(job.log);
  const meta = readMeta(path);
  if (meta && meta.status !== 'done') writeMeta(path, { ...meta, status: 'done', error: null, finished: meta.finished ?? new Date().toISOString() });
}

async function executeClaimed(job: EpisodeJobData, ctx: WorkerContext, tasks: Map<string, KindTask>, delivery: Delivery): Promise<EpisodeOutcome> {
  const state = logState(job.log);
  if (state === 'ended') {
    settleMeta(job);
    // Ended while this job lived (by its other delivery, after a lapsed lock): not a leftover.
    const endedAt = Date.parse(readTrajectory(job.log).end?.t ?? '');
    const before = Number.isFinite(endedAt) && endedAt < delivery.startedAt;
    return outcomeOf(job, { skipped: !delivery.redelivered && before, resumed: delivery.redelivered, played: false });
  }
  let task = tasks.get(job.taskId);
  if (!task) {
    task = await loadAnyTask(job.taskId, { tasksDir: ctx.tasksDir });
    tasks.set(job.taskId, task);
  }
  await runEpisode(
    { jobId: job.jobId, task, run: job.run, spec: job.spec, log: job.log },
    {
      grader: await ctx.grader(),
      config: ctx.config,
      client: () => makeClient(job.spec, ctx.config, ctx.env ?? process.env, episodeSeed(job.spec, job.taskId, job.run)),
      ...(ctx.version ? { version: ctx.version } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    },
  );
  return outcomeOf(job, { skipped: false, resumed: delivery.redelivered || state === 'partial', played: true });
}
