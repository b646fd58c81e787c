// The results table of a study: one row per played episode (human or imported model) and a
// summary per source, kind family and task with the mean and a 95% interval that resamples
// participants (a model: runs) with a small-n warning; CSV forms of both (docs/STUDIES.md,
// "Per-kind summaries"). Inputs: episode rows built by main from the trajectory logs. Outputs:
// summary rows, CSV.
// Invariants: practice, unfinished and excluded episodes never enter a mean; humans and each
// model are separate sources; scores of different families (SplatScore, accuracy, ...) are never
// pooled, and every row names its measure and its counts; the bootstrap is seeded by the
// episodes themselves (intervalOf), so the same episodes give the same interval in every table.
import { z } from 'zod';
import { clusteredBootstrapCi } from '../analysis/cluster-bootstrap';
import { meanOrNull, type BootstrapOptions } from '../analysis/bootstrap';
import { toCsv } from '../analysis/csv';
import { FNV_OFFSET, fnv1a } from '../math/hash';

const num = z.number().nullable();

export const EpisodeResultSchema = z.strictObject({
  /** `human`, or the model name given at import. */
  source: z.string(),
  kind: z.enum(['human', 'model']),
  /** Participant id (P01) or the model name. */
  participant: z.string(),
  taskId: z.string(),
  /** The task's kind family (src/shared/kinds/registry.ts): rows of different families never pool. */
  family: z.string(),
  /** What `score` measures for that family (SplatScore, accuracy %, ...: the kind module's score.unit). */
  measure: z.string(),
  /** The task's kind (sculpt, reassembly, oneshot, search, relation): the "(all ... tasks)" rows pool one kind only. */
  taskKind: z.string().optional(),
  /** A model's run number on this task (1, 2, ...); null for a person. */
  run: z.number().int().positive().nullable().optional(),
  practice: z.boolean(),
  protocol: z.string(),
  complete: z.boolean(),
  score: num,
  psnr: num,
  ssim: num,
  iou: num,
  lpips: num,
  lpipsMissing: z.boolean(),
  reward: num,
  calls: z.number().int(),
  renders: z.number().int().nullable(),
  gaussians: z.number().int().nullable(),
  /** Active time from the header's start to the ending call's finish (or the last call), paused and down time left out, in seconds; the final grading is not in it. */
  seconds: num,
  /** Wall time over the same span, and its paused and down (lab not running / no page) parts. */
  wallSeconds: num.optional(),
  pausedSeconds: num.optional(),
  downSeconds: num.optional(),
  /** Disconnects and restarts during the episode, and pauses. */
  interruptions: z.number().int().nullable().optional(),
  pauses: z.number().int().nullable().optional(),
  /** Sum of the per-call `ms` (time spent inside tool calls), in seconds. */
  toolSeconds: z.number(),
  /** Of the active time (src/shared/env/person-time.ts): the lab's compute inside calls, the transport to the page and back, and the rest, think time. */
  computeSeconds: num.optional(),
  transportSeconds: num.optional(),
  thinkSeconds: num.optional(),
  started: z.string(),
  /** Trajectory path relative to the study folder (the replay key). */
  log: z.string(),
  /** A model run whose file claimed another score than the lab's regrade: the claimed score. */
  scoreMismatch: num.optional(),
  /** Why the episode is left out of the statistics (an exclusion, or the participant withdrew); null when in. */
  excluded: z.string().nullable().optional(),
  /** 1-based position of the task in the participant's order (0 = practice; null for a model). */
  orderPosition: z.number().int().nonnegative().nullable().optional(),
});
export type EpisodeResult = z.infer<typeof EpisodeResultSchema>;

export const SummaryRowSchema = z.strictObject({
  source: z.string(),
  /** The kind family every episode of the row belongs to. */
  family: z.string(),
  /** What `mean`, `low` and `high` measure (the family's score unit). */
  measure: z.string(),
  /** The task kind every episode of the row belongs to (sculpt, reassembly, oneshot, search, relation). */
  taskKind: z.string().optional(),
  /** A task id, or allTasksOf(kind) for every scored episode of the source of that task kind. */
  taskId: z.string(),
  n: z.number().int(),
  mean: num,
  low: num,
  high: num,
  meanSeconds: num,
  /** What the interval resamples: participants (people) or runs (a model's repeated runs). */
  unit: z.enum(['participants', 'runs']),
  /** How many participants or runs the row holds (n counts episodes). */
  clusters: z.number().int(),
  /** Set when there are too few participants or runs for the interval to mean much. */
  warning: z.string().nullable(),
  /** Episodes of the row graded without LPIPS (their score is the PSNR and SSIM terms only). */
  lpipsMissing: z.number().int().optional(),
});
export type SummaryRow = z.infer<typeof SummaryRowSchema>;

/** The task label of a row over every task of one task kind: `(all sculpt tasks)`. */
export function allTasksOf(kind: string): string {
  return `(all ${kind} tasks)`;
}

/** True for a row over every task of one kind. */
export function isAllTasks(row: { taskId: string }): boolean {
  return /^\(all .+ tasks\)$/.test(row.taskId);
}

/**
 * What an "(all ... tasks)" row may pool: the task's kind (sculpt, reassembly and one-shot are
 * reported apart, as the seed does), else its family for an old row without one.
 */
export function poolOf(r: { taskKind?: string | undefined; family: string }): string {
  return r.taskKind ?? r.family;
}

/** The pools of the rows, in name order. */
export function poolsOf(rows: readonly { taskKind?: string | undefined; family: string }[]): string[] {
  return [...new Set(rows.map(poolOf))].sort();
}

/** The families of the rows, in name order. */
export function familiesOf(rows: readonly { family: string }[]): string[] {
  return [...new Set(rows.map((r) => r.family))].sort();
}

/** FNV-1a of the group key, mixed into the seed so each group has its own stream. */
export function keySeed(key: string, seed: number): number {
  return fnv1a(key, FNV_OFFSET ^ seed);
}


/** Fewest participants (or runs) for which an interval is shown without a warning. */
export const SMALL_N = 5;

/** The unit an episode belongs to: its participant, or for a model the run its log names. */
export function clusterOf(r: EpisodeResult): string {
  if (r.kind === 'human') return r.participant;
  if (typeof r.run === 'number') return `run ${r.run}`;
  const run = /__r(\d+)\.jsonl$/.exec(r.log);
  return run ? `run ${run[1]}` : r.log;
}

export function smallNWarning(clusters: number, unit: 'participants' | 'runs'): string | null {
  if (clusters >= SMALL_N) return null;
  const what = clusters === 1 ? (unit === 'participants' ? 'participant' : 'run') : unit;
  return clusters < 2 ? `only ${clusters} ${what}: no interval` : `only ${clusters} ${what}: too few for a trustworthy 95% interval (${SMALL_N} or more)`;
}

/** The episodes every statistic uses: scored, finished, graded and not excluded. */
export function statisticRows(rows: readonly EpisodeResult[]): EpisodeResult[] {
  return rows.filter((r) => !r.practice && r.complete && r.score !== null && !r.excluded);
}

/** The seed of a group of episodes: its logs, so the same episodes draw the same resamples anywhere. */
export function episodesSeed(group: readonly EpisodeResult[], seed = 0): number {
  return keySeed(group.map((r) => `${r.source}\u0000${r.log}`).sort().join('\u0001'), seed);
}

/** The mean score of a group with its clustered 95% interval (one family's episodes only). */
export function intervalOf(group: readonly EpisodeResult[], opts: BootstrapOptions = {}): ReturnType<typeof clusteredBootstrapCi> {
  if (familiesOf(group).length > 1) throw new Error(`cannot pool the scores of different task kinds (${familiesOf(group).join(', ')})`);
  if (poolsOf(group).length > 1) throw new Error(`cannot pool the scores of different task kinds (${poolsOf(group).join(', ')})`);
  return clusteredBootstrapCi(
    group.map((r) => ({ cluster: clusterOf(r), value: r.score as number })),
    { ...(opts.resamples !== undefined ? { resamples: opts.resamples } : {}), ...(opts.level !== undefined ? { level: opts.level } : {}), seed: episodesSeed(group, opts.seed ?? 0) },
  );
}

/**
 * Summary per (source, family, task) and per (source, family) over that family's tasks; humans
 * first, then models by name, families by name. Intervals resample participants (a model: runs),
 * never episodes, since one person's episodes are correlated (clustered percentile bootstrap,
 * src/shared/analysis/cluster-bootstrap.ts).
 */
export function summarize(rows: readonly EpisodeResult[], opts: BootstrapOptions = {}): SummaryRow[] {
  const scored = statisticRows(rows);
  const sources = [...new Set(scored.map((r) => r.source))].sort((a, b) => (a === 'human' ? -1 : b === 'human' ? 1 : a.localeCompare(b)));
  const out: SummaryRow[] = [];
  for (const source of sources) {
    const mine = scored.filter((r) => r.source === source);
    for (const pool of poolsOf(mine)) {
      const ofPool = mine.filter((r) => poolOf(r) === pool);
      const family = ofPool[0].family;
      const tasks = [...new Set(ofPool.map((r) => r.taskId))].sort();
      const all = allTasksOf(pool);
      for (const taskId of [...tasks, all]) {
        const group = taskId === all ? ofPool : ofPool.filter((r) => r.taskId === taskId);
        const unit = group[0]?.kind === 'model' ? 'runs' : 'participants';
        const ci = intervalOf(group, opts);
        const secs = group.map((r) => r.seconds).filter((x): x is number => x !== null);
        out.push({ source, family, taskKind: pool, measure: group[0].measure, taskId, n: ci.n, mean: ci.mean, low: ci.low, high: ci.high, meanSeconds: meanOrNull(secs), unit, clusters: ci.clusters, warning: smallNWarning(ci.clusters, unit), lpipsMissing: group.filter((r) => r.lpipsMissing).length });
      }
    }
  }
  return out;
}

export function episodesCsv(rows: readonly EpisodeResult[]): string {
  return toCsv<EpisodeResult>(
    [
      { name: 'source', value: (r) => r.source },
      { name: 'participant', value: (r) => r.participant },
      { name: 'task', value: (r) => r.taskId },
      { name: 'kind_family', value: (r) => r.family },
      { name: 'measure', value: (r) => r.measure },
      { name: 'practice', value: (r) => r.practice },
      { name: 'protocol', value: (r) => r.protocol },
      { name: 'complete', value: (r) => r.complete },
      { name: 'score', value: (r) => r.score },
      { name: 'psnr', value: (r) => r.psnr },
      { name: 'ssim', value: (r) => r.ssim },
      { name: 'iou', value: (r) => r.iou },
      { name: 'lpips', value: (r) => r.lpips },
      { name: 'lpips_missing', value: (r) => r.lpipsMissing },
      { name: 'reward', value: (r) => r.reward },
      { name: 'calls', value: (r) => r.calls },
      { name: 'renders', value: (r) => r.renders },
      { name: 'gaussians', value: (r) => r.gaussians },
      { name: 'seconds', value: (r) => r.seconds },
      { name: 'paused_seconds', value: (r) => r.pausedSeconds ?? null },
      { name: 'down_seconds', value: (r) => r.downSeconds ?? null },
      { name: 'interruptions', value: (r) => r.interruptions ?? null },
      { name: 'tool_seconds', value: (r) => r.toolSeconds },
      { name: 'started', value: (r) => r.started },
      { name: 'log', value: (r) => r.log },
    ],
    rows,
  );
}

export function summaryCsv(rows: readonly SummaryRow[]): string {
  return toCsv<SummaryRow>(
    [
      { name: 'source', value: (r) => r.source },
      { name: 'task', value: (r) => r.taskId },
      { name: 'kind_family', value: (r) => r.family },
      { name: 'measure', value: (r) => r.measure },
      { name: 'n', value: (r) => r.n },
      { name: 'mean_score', value: (r) => r.mean },
      { name: 'ci95_low', value: (r) => r.low },
      { name: 'ci95_high', value: (r) => r.high },
      { name: 'mean_seconds', value: (r) => r.meanSeconds },
      { name: 'ci_unit', value: (r) => r.unit },
      { name: 'n_units', value: (r) => r.clusters },
      { name: 'warning', value: (r) => r.warning },
      { name: 'lpips_missing', value: (r) => r.lpipsMissing ?? 0 },
    ],
    rows,
  );
}
