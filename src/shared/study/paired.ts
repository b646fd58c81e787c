// Humans vs models per task: the difference of mean scores (humans minus the model) with a 95%
// percentile bootstrap interval that resamples participants for the humans and runs for the
// model, independently (the two samples are separate groups matched by task); plus one summary
// row per participant. Inputs: EpisodeResult rows. Outputs: PairedDifferenceRow / ParticipantSummary.
// Invariants: only statisticRows enter (practice, unfinished and excluded episodes never do);
// rows never pool kind families (docs/STUDIES.md, "Per-kind summaries"): the "(all <family>
// tasks)" difference is the mean of the per-task differences over that family's tasks both sides
// played, resampling whole participants (and whole runs) across them; a participant has one row
// per family; seeded by the episodes of the row, so the same episodes give the same interval.
import { z } from 'zod';
import { mulberry32 } from '../math/random';
import { BOOTSTRAP_DEFAULTS, meanOrNull, quantileSorted, type BootstrapOptions } from '../analysis/bootstrap';
import { allTasksOf, clusterOf, episodesSeed, keySeed, poolOf, poolsOf, smallNWarning, statisticRows, type EpisodeResult } from './results';

const num = z.number().nullable();

export const PairedDifferenceRowSchema = z.strictObject({
  model: z.string(),
  /** The kind family of the row's tasks, and what its means and difference measure. */
  family: z.string(),
  /** The task kind of the row's tasks (sculpt, reassembly, oneshot, search, relation). */
  taskKind: z.string().optional(),
  measure: z.string(),
  /** A task id, or '(all <kind> tasks)': the mean of the per-task differences over that task kind. */
  taskId: z.string(),
  humanMean: num,
  modelMean: num,
  /** Human mean minus model mean (positive: people scored higher). */
  difference: num,
  low: num,
  high: num,
  participants: z.number().int(),
  runs: z.number().int(),
  /** Tasks the row covers (1 for a task row). */
  tasks: z.number().int(),
  warning: z.string().nullable(),
});
export type PairedDifferenceRow = z.infer<typeof PairedDifferenceRowSchema>;

export const ParticipantSummarySchema = z.strictObject({
  participant: z.string(),
  /** One row per participant and task kind; meanScore is in `measure`. */
  family: z.string(),
  taskKind: z.string().optional(),
  measure: z.string(),
  /** Scored episodes that enter the statistics. */
  tasks: z.number().int(),
  excluded: z.number().int(),
  meanScore: num,
  meanSeconds: num,
  calls: z.number().int(),
});
export type ParticipantSummary = z.infer<typeof ParticipantSummarySchema>;

/** cluster -> task -> scores, for one side. */
type Side = Map<string, Map<string, number[]>>;

function sideOf(rows: readonly EpisodeResult[]): Side {
  const out: Side = new Map();
  for (const r of rows) {
    const c = clusterOf(r);
    const byTask = out.get(c) ?? new Map<string, number[]>();
    byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r.score as number]);
    out.set(c, byTask);
  }
  return out;
}

/** Pooled mean per task of the given clusters (a cluster drawn twice counts twice). */
function taskMeans(groups: readonly Map<string, number[]>[], tasks: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tasks) {
    let s = 0;
    let c = 0;
    for (const g of groups) {
      for (const v of g.get(t) ?? []) {
        s += v;
        c++;
      }
    }
    if (c > 0) out.set(t, s / c);
  }
  return out;
}

/** Mean over tasks of human minus model, over the tasks both sides have; null if none. */
function meanDifference(h: Map<string, number>, m: Map<string, number>, tasks: readonly string[]): number | null {
  let s = 0;
  let c = 0;
  for (const t of tasks) {
    const a = h.get(t);
    const b = m.get(t);
    if (a !== undefined && b !== undefined) {
      s += a - b;
      c++;
    }
  }
  return c ? s / c : null;
}

function differenceRow(model: string, taskId: string, human: Side, machine: Side, tasks: readonly string[], opts: BootstrapOptions, of: { family: string; taskKind: string; measure: string; episodes: readonly EpisodeResult[] }): PairedDifferenceRow {
  const hGroups = [...human.entries()].filter(([, g]) => tasks.some((t) => g.has(t))).sort(([a], [b]) => a.localeCompare(b)).map(([, g]) => g);
  const mGroups = [...machine.entries()].filter(([, g]) => tasks.some((t) => g.has(t))).sort(([a], [b]) => a.localeCompare(b)).map(([, g]) => g);
  const hm = taskMeans(hGroups, tasks);
  const mm = taskMeans(mGroups, tasks);
  const shared = tasks.filter((t) => hm.has(t) && mm.has(t));
  const difference = meanDifference(hm, mm, shared);
  const pooled = (means: Map<string, number>): number | null => (shared.length ? shared.reduce((s, t) => s + (means.get(t) as number), 0) / shared.length : null);
  let low: number | null = null;
  let high: number | null = null;
  if (difference !== null && (hGroups.length >= 2 || mGroups.length >= 2)) {
    const resamples = opts.resamples ?? BOOTSTRAP_DEFAULTS.resamples;
    const level = opts.level ?? BOOTSTRAP_DEFAULTS.level;
    const rng = mulberry32(keySeed('paired', episodesSeed(of.episodes, opts.seed ?? BOOTSTRAP_DEFAULTS.seed)));
    const draw = (groups: readonly Map<string, number[]>[]): Map<string, number[]>[] => groups.map(() => groups[rng.int(groups.length)]);
    const diffs: number[] = [];
    for (let b = 0; b < resamples; b++) {
      const d = meanDifference(taskMeans(draw(hGroups), shared), taskMeans(draw(mGroups), shared), shared);
      if (d !== null) diffs.push(d);
    }
    diffs.sort((a, b) => a - b);
    const tail = (1 - level) / 2;
    if (diffs.length) {
      low = quantileSorted(diffs, tail);
      high = quantileSorted(diffs, 1 - tail);
    }
  }
  const pw = smallNWarning(hGroups.length, 'participants');
  const rw = mGroups.length < 2 ? `only ${mGroups.length} run${mGroups.length === 1 ? '' : 's'} of the model: the interval reflects the participants only` : null;
  const warning = difference === null ? 'no task played by both' : [pw, rw].filter(Boolean).join('; ') || null;
  return { model, family: of.family, taskKind: of.taskKind, measure: of.measure, taskId, humanMean: pooled(hm), modelMean: pooled(mm), difference, low, high, participants: hGroups.length, runs: mGroups.length, tasks: shared.length, warning };
}

/** Per model and family: one row per task both played, then the family's all-tasks row; models by name. */
export function pairedDifferences(rows: readonly EpisodeResult[], opts: BootstrapOptions = {}): PairedDifferenceRow[] {
  const scored = statisticRows(rows);
  const humans = scored.filter((r) => r.kind === 'human');
  const models = [...new Set(scored.filter((r) => r.kind === 'model').map((r) => r.source))].sort();
  const out: PairedDifferenceRow[] = [];
  for (const model of models) {
    const mine = scored.filter((r) => r.source === model);
    for (const pool of poolsOf(mine)) {
      const ofModel = mine.filter((r) => poolOf(r) === pool);
      const ofHumans = humans.filter((r) => poolOf(r) === pool);
      const family = ofModel[0].family;
      const human = sideOf(ofHumans);
      const machine = sideOf(ofModel);
      const measure = ofModel[0].measure;
      const tasks = [...new Set(ofModel.map((r) => r.taskId))].filter((t) => ofHumans.some((h) => h.taskId === t)).sort();
      const episodesOf = (ts: readonly string[]) => [...ofHumans, ...ofModel].filter((r) => ts.includes(r.taskId));
      for (const t of tasks) out.push(differenceRow(model, t, human, machine, [t], opts, { family, taskKind: pool, measure, episodes: episodesOf([t]) }));
      if (tasks.length) out.push(differenceRow(model, allTasksOf(pool), human, machine, tasks, opts, { family, taskKind: pool, measure, episodes: episodesOf(tasks) }));
    }
  }
  return out;
}

/** One row per human participant and kind family (participants in id order), over the episodes that enter the statistics. */
export function participantSummaries(rows: readonly EpisodeResult[]): ParticipantSummary[] {
  const humans = rows.filter((r) => r.kind === 'human' && !r.practice);
  const ids = [...new Set(humans.map((r) => r.participant))].sort();
  const used = new Set(statisticRows(humans));
  return ids.flatMap((participant) => {
    const theirs = humans.filter((r) => r.participant === participant);
    return poolsOf(theirs).map((pool) => {
      const mine = theirs.filter((r) => poolOf(r) === pool);
      const family = mine[0].family;
      const kept = mine.filter((r) => used.has(r));
      const secs = kept.map((r) => r.seconds).filter((s): s is number => s !== null);
      return {
        participant,
        family,
        taskKind: pool,
        measure: mine[0].measure,
        tasks: kept.length,
        excluded: mine.filter((r) => r.excluded).length,
        meanScore: meanOrNull(kept.map((r) => r.score as number)),
        meanSeconds: meanOrNull(secs),
        calls: mine.reduce((s, r) => s + r.calls, 0),
      };
    });
  });
}
