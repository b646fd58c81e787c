// The seed's analyses over humans and models side by side, per task kind and player group:
// SplatScore with clustered 95% bootstrap CIs, score over calls, best intermediate vs final,
// the mirror test with its ceiling, reassembly heading errors, one-shot vs full, cost and time,
// effort sweeps; SplatScore and the mirror test also per object source (procedural, synthetic,
// photographed; docs/TASKS.md "Results per object source").
// Input: AnalysisEpisode rows (built in main from the logs). Output: AnalysisReport (all means
// with their n). Invariants: practice and unfinished episodes never enter an analysis; the
// bootstrap is seeded per (kind, group) so the report reproduces; participants form one group.
import { z } from 'zod';
import { clusteredBootstrapCi } from './cluster-bootstrap';
import { meanOrNull } from './bootstrap';
import { bestAndFinal, curveBand } from './curves';
import { headingSummary } from './heading';
import { fnv1a } from '../math/hash';
import { ALL_SOURCES, OBJECT_SOURCES, ObjectSourceSchema, type ObjectSource } from './object-source';

const num = z.number().nullable();

export const AnalysisEpisodeSchema = z.strictObject({
  /** 'participants', or the model's player name with its settings. */
  group: z.string(),
  kind: z.enum(['human', 'model']),
  /** Bootstrap cluster: the participant, or the model's run number. */
  cluster: z.string(),
  taskId: z.string(),
  object: z.string(),
  taskKind: z.enum(['sculpt', 'reassembly', 'oneshot']),
  practice: z.boolean(),
  complete: z.boolean(),
  score: num,
  /** Hidden score after 0..calls calls. */
  curve: z.array(num),
  /** Where the object comes from (absent: procedural, as every task before sources were recorded). */
  source: ObjectSourceSchema.optional(),
  /**
   * The build mirrored across the task's ceiling plane (heading `planeDeg` of its normal), and
   * `ceiling`, the reference fit's own drop there (what a build that follows the object can lose).
   */
  mirror: z.strictObject({ iou: z.number(), mirroredIou: z.number(), drop: z.number(), planeDeg: z.number().optional(), ceiling: z.number().optional() }).nullable(),
  /** Per part (reassembly only): absolute heading error in degrees, null when unmatched. */
  headingErrors: z.array(num).nullable(),
  /** Part labels in the order of headingErrors. */
  headingParts: z.array(z.string()).nullable(),
  /** The same parts named from the object's authoring (head, left leg, ...; ./part-names.ts), when it has named groups. */
  headingNames: z.array(z.string()).nullable().optional(),
  costUsd: num,
  seconds: num,
  /** provider:model without settings (models only), for the effort sweep. */
  model: z.string().nullable(),
  effort: z.string().nullable(),
});
export type AnalysisEpisode = z.infer<typeof AnalysisEpisodeSchema>;

const kindEnum = AnalysisEpisodeSchema.shape.taskKind;
const band = z.strictObject({ call: z.number().int(), n: z.number().int(), median: z.number(), low: z.number(), high: z.number() });

export const AnalysisReportSchema = z.strictObject({
  scores: z.array(z.strictObject({ taskKind: kindEnum, group: z.string(), kind: z.enum(['human', 'model']), n: z.number().int(), clusters: z.number().int(), mean: num, low: num, high: num })),
  curves: z.array(z.strictObject({ taskKind: kindEnum, group: z.string(), n: z.number().int(), points: z.array(band) })),
  bestFinal: z.array(z.strictObject({ taskKind: kindEnum, group: z.string(), n: z.number().int(), best: num, final: num })),
  /** Per group: 'all', then each object source when the episodes span more than one. */
  mirror: z.array(z.strictObject({ group: z.string(), source: z.string(), n: z.number().int(), iou: num, mirroredIou: num, drop: num, ceiling: num })),
  /** SplatScore per task kind, group and object source ('all' and each source present). */
  sources: z.array(z.strictObject({ taskKind: kindEnum, group: z.string(), source: z.string(), n: z.number().int(), clusters: z.number().int(), mean: num, low: num, high: num })),
  heading: z.array(z.strictObject({ group: z.string(), episodes: z.number().int(), parts: z.number().int(), within: z.number().int(), share: num, meanDeg: num })),
  /** Per object and part: the group's mean heading error over its episodes (the seed's table). */
  headingParts: z.array(z.strictObject({ group: z.string(), object: z.string(), part: z.string(), n: z.number().int(), within: z.number().int(), meanDeg: num })),
  oneShot: z.array(z.strictObject({ group: z.string(), nOneShot: z.number().int(), oneShot: num, nFull: z.number().int(), full: num })),
  cost: z.array(z.strictObject({ group: z.string(), n: z.number().int(), costUsd: num, nCost: z.number().int(), seconds: num })),
  effort: z.array(z.strictObject({ model: z.string(), effort: z.string(), n: z.number().int(), mean: num, costUsd: num })),
});
export type AnalysisReport = z.infer<typeof AnalysisReportSchema>;

const KINDS = ['sculpt', 'reassembly', 'oneshot'] as const;

const sourceOf = (r: AnalysisEpisode): ObjectSource => r.source ?? 'procedural';

/** 'all', then each source the rows hold (in OBJECT_SOURCES order) when they hold more than one. */
function sourceSplits(rows: readonly AnalysisEpisode[]): { source: string; rows: AnalysisEpisode[] }[] {
  const present = OBJECT_SOURCES.filter((s) => rows.some((r) => sourceOf(r) === s));
  const each = present.length > 1 ? present.map((source) => ({ source, rows: rows.filter((r) => sourceOf(r) === source) })) : [];
  return [{ source: ALL_SOURCES, rows: [...rows] }, ...each];
}


function seedOf(key: string): number {
  return fnv1a(key);
}

/** Participants first, then models by name. */
function groupsOf(rows: readonly AnalysisEpisode[]): string[] {
  const humans = rows.some((r) => r.kind === 'human') ? ['participants'] : [];
  const models = [...new Set(rows.filter((r) => r.kind === 'model').map((r) => r.group))].sort();
  return [...humans, ...models];
}

const nums = (xs: readonly (number | null)[]): number[] => xs.filter((x): x is number => x !== null);

export function analyse(all: readonly AnalysisEpisode[], opts: { resamples?: number } = {}): AnalysisReport {
  const rows = all.filter((r) => !r.practice && r.complete);
  const groups = groupsOf(rows);
  const report: AnalysisReport = { scores: [], curves: [], bestFinal: [], mirror: [], sources: [], heading: [], headingParts: [], oneShot: [], cost: [], effort: [] };
  for (const taskKind of KINDS) {
    for (const group of groups) {
      const mine = rows.filter((r) => r.taskKind === taskKind && r.group === group);
      if (!mine.length) continue;
      const scored = mine.filter((r) => r.score !== null);
      const ci = clusteredBootstrapCi(scored.map((r) => ({ cluster: r.cluster, value: r.score as number })), { seed: seedOf(`${taskKind}\u0000${group}`), ...(opts.resamples ? { resamples: opts.resamples } : {}) });
      report.scores.push({ taskKind, group, kind: mine[0].kind, n: ci.n, clusters: ci.clusters, mean: ci.mean, low: ci.low, high: ci.high });
      report.curves.push({ taskKind, group, n: mine.length, points: curveBand(mine.map((r) => r.curve)) });
      const bf = mine.map((r) => bestAndFinal(r.curve, r.score)).filter((b) => b.best !== null && b.final !== null);
      report.bestFinal.push({ taskKind, group, n: bf.length, best: meanOrNull(bf.map((b) => b.best as number)), final: meanOrNull(bf.map((b) => b.final as number)) });
      for (const split of sourceSplits(scored)) {
        const c = split.source === ALL_SOURCES ? ci : clusteredBootstrapCi(split.rows.map((r) => ({ cluster: r.cluster, value: r.score as number })), { seed: seedOf(`${taskKind}\u0000${group}\u0000${split.source}`), ...(opts.resamples ? { resamples: opts.resamples } : {}) });
        report.sources.push({ taskKind, group, source: split.source, n: c.n, clusters: c.clusters, mean: c.mean, low: c.low, high: c.high });
      }
    }
  }
  for (const group of groups) {
    const mine = rows.filter((r) => r.group === group);
    for (const split of sourceSplits(mine.filter((r) => r.mirror !== null && r.taskKind !== 'reassembly'))) {
      const mirrored = split.rows.map((r) => r.mirror as NonNullable<AnalysisEpisode['mirror']>);
      if (!mirrored.length) continue;
      const ceilings = mirrored.map((m) => m.ceiling).filter((c): c is number => c !== undefined);
      report.mirror.push({
        group, source: split.source, n: mirrored.length,
        iou: meanOrNull(mirrored.map((m) => m.iou)), mirroredIou: meanOrNull(mirrored.map((m) => m.mirroredIou)), drop: meanOrNull(mirrored.map((m) => m.drop)),
        ceiling: ceilings.length === mirrored.length ? meanOrNull(ceilings) : null,
      });
    }
    const reass = mine.filter((r) => r.headingErrors !== null);
    if (reass.length) report.heading.push({ group, episodes: reass.length, ...headingSummary(reass.flatMap((r) => r.headingErrors ?? [])) });
    const parts = new Map<string, (number | null)[]>();
    for (const r of reass) (r.headingNames ?? r.headingParts ?? []).forEach((label, i) => parts.set(`${r.object}\u0000${label}`, [...(parts.get(`${r.object}\u0000${label}`) ?? []), r.headingErrors?.[i] ?? null]));
    for (const [key, errs] of [...parts].sort((a, b) => a[0].localeCompare(b[0]))) {
      const [object, part] = key.split('\u0000');
      const h = headingSummary(errs);
      report.headingParts.push({ group, object, part, n: errs.length, within: h.within, meanDeg: h.meanDeg });
    }
    const one = nums(mine.filter((r) => r.taskKind === 'oneshot').map((r) => r.score));
    const full = nums(mine.filter((r) => r.taskKind === 'sculpt').map((r) => r.score));
    if (one.length || full.length) report.oneShot.push({ group, nOneShot: one.length, oneShot: meanOrNull(one), nFull: full.length, full: meanOrNull(full) });
    const costs = nums(mine.map((r) => r.costUsd));
    report.cost.push({ group, n: mine.length, costUsd: meanOrNull(costs), nCost: costs.length, seconds: meanOrNull(nums(mine.map((r) => r.seconds))) });
  }
  const sweeps = new Map<string, AnalysisEpisode[]>();
  for (const r of rows) if (r.kind === 'model' && r.model) sweeps.set(`${r.model}\u0000${r.effort ?? 'default'}`, [...(sweeps.get(`${r.model}\u0000${r.effort ?? 'default'}`) ?? []), r]);
  for (const [key, mine] of [...sweeps].sort((a, b) => a[0].localeCompare(b[0]))) {
    const [model, effort] = key.split('\u0000');
    report.effort.push({ model, effort, n: mine.length, mean: meanOrNull(nums(mine.map((r) => r.score))), costUsd: meanOrNull(nums(mine.map((r) => r.costUsd))) });
  }
  return report;
}
