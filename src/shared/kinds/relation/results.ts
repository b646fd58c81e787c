// Scores of relation trials: accuracy per environment, triple and task (ego/allo) with 95%
// intervals, the 25% chance line, 4x4 confusion matrices and median reaction times; humans
// and models side by side. Input: answered trials (who answered, the truth, the answer, the
// reaction time). Output: tables for the Results view and the export.
// Invariant: a trial counts once; an interval is the Wilson score interval of the pooled trials
// (one answerer) or, with several answerers of one kind, the clustered bootstrap over answerers.
import { clusteredBootstrapCi } from '../../analysis/cluster-bootstrap';
import { RELATION_CLASSES, type RelationClass, type RelationTask } from './labels';

export const CHANCE = 1 / RELATION_CLASSES.length;

export interface RelationTrial {
  /** 'human' or 'model'. */
  who: 'human' | 'model';
  /** The participant or the model run: the cluster of the interval. */
  answerer: string;
  environment: string;
  triple: string;
  task: RelationTask;
  truth: RelationClass;
  answer: RelationClass | null; // null: no answer (time out, gave up) = wrong
  rtMs: number | null;
  confidence?: number | null;
}

export interface AccuracyCell {
  group: string; // 'all', an environment, `env/triple`, or a task
  who: 'human' | 'model';
  n: number;
  correct: number;
  accuracy: number | null;
  low: number | null;
  high: number | null;
  medianRtMs: number | null;
}

/** Wilson score interval of k successes in n at z (95%: 1.959964). */
export function wilson(k: number, n: number, z = 1.959964): [number, number] | null {
  if (n === 0) return null;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function cell(group: string, who: 'human' | 'model', trials: readonly RelationTrial[]): AccuracyCell {
  const n = trials.length;
  const correct = trials.filter((t) => t.answer === t.truth).length;
  const answerers = new Set(trials.map((t) => t.answerer));
  let low: number | null = null, high: number | null = null;
  if (answerers.size >= 2) {
    const ci = clusteredBootstrapCi(trials.map((t) => ({ cluster: t.answerer, value: t.answer === t.truth ? 1 : 0 })), { seed: 16 });
    low = ci.low; high = ci.high;
  } else {
    const w = wilson(correct, n);
    if (w) [low, high] = w;
  }
  const rts = trials.map((t) => t.rtMs).filter((x): x is number => x !== null);
  return { group, who, n, correct, accuracy: n ? correct / n : null, low, high, medianRtMs: median(rts) };
}

export interface RelationSummary {
  chance: number;
  cells: AccuracyCell[];
  /** confusion[who][task][truth][answer or 'none'] = count. */
  confusion: Record<string, Record<string, Record<string, Record<string, number>>>>;
}

export function summariseRelation(trials: readonly RelationTrial[]): RelationSummary {
  const cells: AccuracyCell[] = [];
  const confusion: RelationSummary['confusion'] = {};
  for (const who of ['human', 'model'] as const) {
    const mine = trials.filter((t) => t.who === who);
    if (mine.length === 0) continue;
    const by = (key: (t: RelationTrial) => string) => {
      const groups = new Map<string, RelationTrial[]>();
      for (const t of mine) groups.set(key(t), [...(groups.get(key(t)) ?? []), t]);
      return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
    };
    cells.push(cell('all', who, mine));
    for (const [g, ts] of by((t) => t.task)) cells.push(cell(g, who, ts));
    for (const [g, ts] of by((t) => t.environment)) cells.push(cell(g, who, ts));
    for (const [g, ts] of by((t) => `${t.environment}/${t.triple}`)) cells.push(cell(g, who, ts));
    confusion[who] = {};
    for (const t of mine) {
      const m = (confusion[who][t.task] ??= Object.fromEntries(RELATION_CLASSES.map((c) => [c, Object.fromEntries([...RELATION_CLASSES, 'none'].map((a) => [a, 0]))])));
      m[t.truth][t.answer ?? 'none']++;
    }
  }
  return { chance: CHANCE, cells, confusion };
}
