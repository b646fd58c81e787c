// A relation study's results as the paper's tables want them (docs/RELATION.md, "Results"):
// accuracy per environment x task (ego, allo) for people and for each model, with
// participant-clustered 95% intervals (clustered bootstrap over answerers; Wilson with one);
// reaction-time distributions (quartiles and a histogram); front/back/left/right confusion
// matrices; accuracy over the block; attention checks passed; unparseable model answers; and
// the probe accuracies SpaRRTa reports (src/shared/kinds/relation/paper.ts) beside them.
// Input: the study's trial rows. Output: RelationStudySummary (zod). Invariant: attention checks
// never enter accuracy; a timed-out or unparseable trial counts as wrong and has no reaction time.
import { z } from 'zod';
import { clusteredBootstrapCi } from '../../analysis/cluster-bootstrap';
import { RELATION_CLASSES, RELATION_TASKS, type RelationClass, type RelationTask } from './labels';
import { PAPER_FIGURES, PAPER_PROBES, PAPER_SOURCE } from './paper';
import { wilson } from './results';

/** Reaction-time histogram: 250 ms bins from 0; the last bin holds everything from 4.75 s. */
export const RT_BIN_MS = 250;
export const RT_BINS = 20;
/** Trials per point of accuracy over the block. */
export const BLOCK_BIN = 20;

export interface StudyTrial {
  who: 'human' | 'model';
  answerer: string;
  trial: number;
  environment: string;
  task: RelationTask;
  truth: RelationClass;
  answer: RelationClass | null;
  rtMs: number | null;
  catch?: boolean;
  timedOut?: boolean;
  unparsed?: string | null;
}

const series = z.string().describe("'human', or 'model:<name>' for one model's runs");
const Interval = { accuracy: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable() };

export const RelationStudySummarySchema = z.strictObject({
  series: z.array(z.strictObject({ key: series, who: z.enum(['human', 'model']), answerers: z.number().int() })),
  cells: z.array(z.strictObject({
    series, environment: z.string(), task: z.enum(RELATION_TASKS), n: z.number().int(), correct: z.number().int(), clusters: z.number().int(),
    ...Interval, medianRtMs: z.number().nullable(),
  })),
  rt: z.array(z.strictObject({
    series, task: z.enum(RELATION_TASKS), n: z.number().int(), q25: z.number().nullable(), median: z.number().nullable(), q75: z.number().nullable(),
    bins: z.array(z.number().int()),
  })),
  confusion: z.array(z.strictObject({ series, task: z.enum(RELATION_TASKS), matrix: z.record(z.string(), z.record(z.string(), z.number().int())) })),
  overBlock: z.array(z.strictObject({ series, from: z.number().int(), to: z.number().int(), n: z.number().int(), accuracy: z.number().nullable() })),
  checks: z.array(z.strictObject({ series, passed: z.number().int(), total: z.number().int() })),
  unparsed: z.array(z.strictObject({ series, count: z.number().int(), total: z.number().int() })),
  paper: z.strictObject({
    source: z.string(),
    probes: z.array(z.enum(PAPER_PROBES)),
    figures: z.array(z.strictObject({ model: z.string(), task: z.enum(RELATION_TASKS), environment: z.string(), probe: z.enum(PAPER_PROBES), accuracy: z.number() })),
  }),
});
export type RelationStudySummary = z.infer<typeof RelationStudySummarySchema>;

const keyOf = (t: StudyTrial) => (t.who === 'human' ? 'human' : `model:${t.answerer}`);

function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q, lo = Math.floor(pos), hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function interval(trials: readonly StudyTrial[]): { accuracy: number | null; low: number | null; high: number | null; clusters: number } {
  const n = trials.length, correct = trials.filter((t) => t.answer === t.truth).length;
  const clusters = new Set(trials.map((t) => t.answerer)).size;
  if (n === 0) return { accuracy: null, low: null, high: null, clusters };
  if (clusters >= 2) {
    const ci = clusteredBootstrapCi(trials.map((t) => ({ cluster: t.answerer, value: t.answer === t.truth ? 1 : 0 })), { seed: 25 });
    return { accuracy: correct / n, low: ci.low, high: ci.high, clusters };
  }
  const w = wilson(correct, n);
  return { accuracy: correct / n, low: w?.[0] ?? null, high: w?.[1] ?? null, clusters };
}

const median = (xs: number[]) => quantile([...xs].sort((a, b) => a - b), 0.5);

export function summariseStudy(all: readonly StudyTrial[]): RelationStudySummary {
  const keys = [...new Set(all.map(keyOf))].sort((a, b) => (a === 'human' ? -1 : b === 'human' ? 1 : a.localeCompare(b)));
  const out: RelationStudySummary = {
    series: [], cells: [], rt: [], confusion: [], overBlock: [], checks: [], unparsed: [],
    paper: { source: PAPER_SOURCE, probes: [...PAPER_PROBES], figures: PAPER_FIGURES.map((f) => ({ ...f })) },
  };
  for (const key of keys) {
    const mine = all.filter((t) => keyOf(t) === key);
    const scored = mine.filter((t) => !t.catch);
    out.series.push({ key, who: mine[0].who, answerers: new Set(mine.map((t) => t.answerer)).size });
    const envs = [...new Set(scored.map((t) => t.environment))].sort();
    for (const environment of [...envs, 'all']) {
      for (const task of RELATION_TASKS) {
        const ts = scored.filter((t) => t.task === task && (environment === 'all' || t.environment === environment));
        if (ts.length === 0) continue;
        const rts = ts.map((t) => t.rtMs).filter((x): x is number => x !== null);
        out.cells.push({ series: key, environment, task, n: ts.length, correct: ts.filter((t) => t.answer === t.truth).length, ...interval(ts), medianRtMs: median(rts) });
      }
    }
    for (const task of RELATION_TASKS) {
      const ts = scored.filter((t) => t.task === task);
      if (ts.length === 0) continue;
      const rts = ts.filter((t) => !t.timedOut && t.answer !== null).map((t) => t.rtMs).filter((x): x is number => x !== null).sort((a, b) => a - b);
      const bins = new Array<number>(RT_BINS).fill(0);
      for (const r of rts) bins[Math.min(RT_BINS - 1, Math.floor(r / RT_BIN_MS))]++;
      out.rt.push({ series: key, task, n: rts.length, q25: quantile(rts, 0.25), median: quantile(rts, 0.5), q75: quantile(rts, 0.75), bins });
      const matrix = Object.fromEntries(RELATION_CLASSES.map((c) => [c, Object.fromEntries([...RELATION_CLASSES, 'none'].map((a) => [a, 0]))]));
      for (const t of ts) matrix[t.truth][t.answer ?? 'none']++;
      out.confusion.push({ series: key, task, matrix });
    }
    const last = Math.max(0, ...scored.map((t) => t.trial));
    for (let from = 1; from <= last; from += BLOCK_BIN) {
      const ts = scored.filter((t) => t.trial >= from && t.trial < from + BLOCK_BIN);
      if (ts.length > 0) out.overBlock.push({ series: key, from, to: Math.min(last, from + BLOCK_BIN - 1), n: ts.length, accuracy: ts.filter((t) => t.answer === t.truth).length / ts.length });
    }
    const checks = mine.filter((t) => t.catch);
    if (checks.length > 0) out.checks.push({ series: key, passed: checks.filter((t) => t.answer === t.truth).length, total: checks.length });
    out.unparsed.push({ series: key, count: mine.filter((t) => t.unparsed !== undefined && t.unparsed !== null).length, total: mine.length });
  }
  return out;
}
