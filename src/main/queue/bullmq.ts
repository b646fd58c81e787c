// Many machines: the run as a BullMQ flow on Redis. The producer adds one parent job (aggregates
// the outcomes into <results>/runs/<id>.json) with one child per unfinished episode, on a queue
// per model provider; workers anywhere pull episodes with a per-provider concurrency limit; a
// worker that dies leaves its jobs stalled, and another worker picks them up and resumes the
// episode from its log. Inputs: redis URL, jobs, worker context. Invariants: job data are ids
// and paths only (no scenes, no images); the results folder, not Redis, says what is finished,
// so a rerun enqueues nothing that has ended. Against duplicates (issue 29 item 4): the heavy
// work of an episode (grading, renders) runs on worker threads, so the event loop that renews
// the locks stays free; locks are renewed every quarter of their duration (three chances before
// they lapse); and a job delivered twice anyway is a no-op (executeJob waits for the log's
// writer and reads its end record). Under load (issue 37) a lapsed lock says so once per job, not
// at every renewal tick or again at its late completion; a redelivered job (taken over after its
// worker died or lost the lock) reports `resumed`, never `skipped`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FlowProducer, Job, Queue, Worker } from 'bullmq';
import { writeFileAtomic } from '../io/write-atomic';
import type { KindTask } from '../kinds/kind';
import { executeJob, type EpisodeOutcome, type WorkerContext } from './execute';
import { runIdOf, type EpisodeJobData } from './plan';

export const FAMILIES = ['openai', 'anthropic', 'scripted'] as const;
export const RUNS_QUEUE = 'splatlab-eval-runs';
export const episodeQueue = (family: EpisodeJobData['family']): string => `splatlab-eval-${family}`;

export interface RunJobData {
  runId: string;
  resultsDir: string;
  total: number;
}

export function connectionOf(url: string): { url: string; maxRetriesPerRequest: null } {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--queue '${url}' is not a redis:// URL`);
  return { url, maxRetriesPerRequest: null };
}

/** Drops a finished or failed job of the same id left from an earlier run, so it can be re-added. */
async function clearStale(url: string, jobs: readonly EpisodeJobData[]): Promise<void> {
  const connection = connectionOf(url);
  for (const family of FAMILIES) {
    const mine = jobs.filter((j) => j.family === family);
    if (!mine.length) continue;
    const queue = new Queue(episodeQueue(family), { connection });
    for (const j of mine) {
      const old = await Job.fromId(queue, j.jobId);
      const state = old ? await old.getState() : null;
      if (old && (state === 'failed' || state === 'completed')) await old.remove().catch(() => undefined);
    }
    await queue.close();
  }
}

export async function enqueueRun(url: string, jobs: readonly EpisodeJobData[], attempts = 3): Promise<string> {
  await clearStale(url, jobs);
  const runId = runIdOf(jobs);
  const producer = new FlowProducer({ connection: connectionOf(url) });
  try {
    const data: RunJobData = { runId, resultsDir: jobs[0]?.resultsDir ?? '', total: jobs.length };
    await producer.add({
      name: 'aggregate',
      queueName: RUNS_QUEUE,
      data,
      opts: { jobId: `run__${runId}` },
      children: jobs.map((j) => ({ name: 'episode', queueName: episodeQueue(j.family), data: j, opts: { jobId: j.jobId, attempts, backoff: { type: 'exponential', delay: 1000 } } })),
    });
  } finally {
    await producer.close();
  }
  return `run__${runId}`;
}

/** Resolves with the parent's final state ('completed' or 'failed'); polls every pollMs. */
export async function waitForRun(url: string, parentId: string, onTick?: () => void, pollMs = 500): Promise<string> {
  const queue = new Queue(RUNS_QUEUE, { connection: connectionOf(url) });
  try {
    for (;;) {
      const job = await Job.fromId(queue, parentId);
      const state = job ? await job.getState() : 'unknown';
      if (state === 'completed' || state === 'failed') return state;
      onTick?.();
      await new Promise((r) => setTimeout(r, pollMs));
    }
  } finally {
    await queue.close();
  }
}

export interface WorkerOptions {
  /** Episodes at once per provider family on this worker. */
  concurrency: Record<EpisodeJobData['family'], number>;
  /** Job lock in ms: a dead worker's jobs are taken over after about this long (default 30 s). */
  lockMs?: number;
  onEpisode?: (job: EpisodeJobData, outcome: EpisodeOutcome) => void;
  /** One line per worker error (a lapsed lock, a lost connection); default: ignored. */
  onError?: (line: string) => void;
}

/**
 * Lock settings of a worker: renewals every quarter of the lock (BullMQ looks every eighth and
 * renews what is due, so a lock has three renewals in hand before it lapses), stall checks once
 * per lock, and a job that stalls three times fails rather than circling between workers.
 */
export function lockSettings(lockDuration: number): { lockDuration: number; lockRenewTime: number; stalledInterval: number; maxStalledCount: number } {
  return { lockDuration, lockRenewTime: Math.max(50, Math.floor(lockDuration / 4)), stalledInterval: Math.max(500, lockDuration), maxStalledCount: 3 };
}

/**
 * The job a BullMQ lock message names, or null: a lapsed renewal, or the late completion (and the
 * retry BullMQ then tries) of a job whose lock another worker now holds or nobody does.
 */
export function lapsedLockJob(message: string): string | null {
  return /^could not renew lock for job (\S+)/.exec(message)?.[1] ?? /^(?:Missing lock|Lock mismatch) for job (\S+?)\. /.exec(message)?.[1] ?? null;
}

/**
 * The worker's error lines, one per job for a lapsed lock (BullMQ repeats it at every renewal tick
 * and again when the late completion and its retry find the lock gone), others as they come.
 */
export function workerErrorLines(onError: ((line: string) => void) | undefined): (e: Error) => void {
  const told = new Set<string>();
  return (e) => {
    const job = lapsedLockJob(e.message);
    if (job === null) return onError?.(`queue worker: ${e.message.split('\n')[0]}`);
    if (told.has(job)) return;
    // Bounded: a long-lived worker forgets the oldest jobs it told about.
    if (told.size >= 4096) told.delete(told.values().next().value as string);
    told.add(job);
    onError?.(`queue worker: episode ${job} lost its lock (a busy machine or a lost connection); another worker may take it over, its log decides who ends it`);
  };
}

/** The queue delivered this job before: its worker died, its lock lapsed, or an attempt failed. */
const redelivered = (job: Job): boolean => job.attemptsStarted > 1 || job.stalledCounter > 0 || job.attemptsMade > 0;

export function startWorkers(url: string, ctx: WorkerContext, opts: WorkerOptions): { close: () => Promise<void> } {
  const connection = connectionOf(url);
  const lockDuration = opts.lockMs ?? 30_000;
  const tasks = new Map<string, KindTask>();
  const workers: { close: () => Promise<void> }[] = FAMILIES.map(
    (family) =>
      new Worker<EpisodeJobData, EpisodeOutcome>(
        episodeQueue(family),
        async (job) => {
          const outcome = await executeJob(job.data, ctx, tasks, { redelivered: redelivered(job), startedAt: job.processedOn ?? Date.now() });
          opts.onEpisode?.(job.data, outcome);
          return outcome;
        },
        { connection, concurrency: Math.max(1, opts.concurrency[family]), ...lockSettings(lockDuration) },
      ),
  );
  workers.push(
    new Worker<RunJobData, { n: number }>(
      RUNS_QUEUE,
      async (job) => {
        const values = Object.values(await job.getChildrenValues<EpisodeOutcome>());
        const dir = join(job.data.resultsDir, 'runs');
        mkdirSync(dir, { recursive: true });
        const path = join(dir, `${job.data.runId}.json`);
        writeFileAtomic(path, JSON.stringify({ run: job.data.runId, finished: new Date().toISOString(), episodes: values }, null, 1) + '\n');
        return { n: values.length };
      },
      { connection, ...lockSettings(lockDuration) },
    ),
  );
  const onError = workerErrorLines(opts.onError);
  for (const w of workers) (w as Worker).on('error', onError);
  return { close: async () => void (await Promise.all(workers.map((w) => w.close()))) };
}
