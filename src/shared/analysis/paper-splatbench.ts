// SplatBench's tables as the seed prints them (../shared/seeds/splatbench.txt; docs/STUDIES.md
// "The paper's tables"): the leaderboard (SplatScore [95% CI], cost and time per episode), the
// score per task kind and per object source, the effort table (wide: one column per effort),
// one-shot vs full, reassembly heading errors per named part with the final score, the mirror
// test, best vs final and the score over calls. People ("People") beside every model and setting.
// Input: AnalysisEpisode rows (src/main/study/analyses.ts) and the AnalysisReport of them.
// Output: PaperTable[]. Invariants: practice and unfinished episodes never enter; sculpt,
// reassembly and one-shot are never pooled except in the leaderboard, which pools the full
// episodes (sculpt and reassembly) as the seed's does and says so; every interval is a
// paperInterval over participants (people) or runs (a model).
import { meanOrNull } from './bootstrap';
import { bestAndFinal } from './curves';
import { HEADING_THRESHOLD_DEG } from './heading';
import { ciOf, numCell, paperInterval, type PaperTable } from './paper-table';
import { ALL_SOURCES, OBJECT_SOURCES } from './object-source';
import type { AnalysisEpisode, AnalysisReport } from './report';

export const PEOPLE = 'People';
const KIND_NAME = { sculpt: 'Sculpt', reassembly: 'Reassembly', oneshot: 'One-shot' } as const;
const KINDS = ['sculpt', 'reassembly', 'oneshot'] as const;
const EFFORT_ORDER = ['minimal', 'low', 'medium', 'default', 'high', 'max', 'xhigh'];

const CLUSTER_NOTE = 'clustered percentile bootstrap, 2000 resamples of whole participants (People) or whole runs (a model)';

/** The display name of a group: People, or the model's canonical name. */
export const groupName = (g: string): string => (g === 'participants' ? PEOPLE : g);

function groupsOf(rows: readonly AnalysisEpisode[]): string[] {
  const models = [...new Set(rows.filter((r) => r.kind === 'model').map((r) => r.group))].sort();
  return [...(rows.some((r) => r.kind === 'human') ? ['participants'] : []), ...models];
}

const scored = (rows: readonly AnalysisEpisode[]): AnalysisEpisode[] => rows.filter((r) => !r.practice && r.complete && r.score !== null);

const ci = (rows: readonly AnalysisEpisode[], key: string) => paperInterval(rows.map((r) => ({ cluster: r.cluster, value: r.score as number })), key);

const usd = (v: number | null): string => (v === null ? '–' : `$${v.toFixed(2)}`);
const minutes = (s: number | null): string => (s === null ? '–' : `${(s / 60).toFixed(1)} min`);
const nums = (xs: readonly (number | null)[]): number[] => xs.filter((x): x is number => x !== null);

function leaderboard(rows: readonly AnalysisEpisode[]): PaperTable {
  const full = rows.filter((r) => r.taskKind !== 'oneshot');
  return {
    id: 'splatbench-leaderboard',
    title: 'SplatBench leaderboard: full episodes (sculpt and reassembly)',
    unit: 'SplatScore (points; 100 = the gradient-descent fit, 0 = one Gaussian in the mean colour); cost in USD per episode; time in minutes of active time per episode',
    n: 'episodes (n) of k participants or runs per row',
    interval: `95% ${CLUSTER_NOTE}`,
    statistic: 'mean over episodes (score, cost, time)',
    notes: ['Pools sculpt and reassembly episodes as the seed\'s leaderboard does; one-shot episodes are apart (one-shot vs full). Cost: a model\'s token cost from its run record; people have none.'],
    columns: ['Player', 'SplatScore [95% CI]', 'Cost per episode', 'Time per episode', 'n', 'k'],
    rows: groupsOf(full)
      .map((g) => {
        const mine = full.filter((r) => r.group === g);
        const c = ci(mine, `leaderboard\u0000${g}`);
        return { c, row: [groupName(g), ciOf(c), usd(meanOrNull(nums(mine.map((r) => r.costUsd)))), minutes(meanOrNull(nums(mine.map((r) => r.seconds)))), String(c.n), String(c.clusters)] };
      })
      // The seed ranks by score, best first.
      .sort((a, b) => (b.c.mean ?? -Infinity) - (a.c.mean ?? -Infinity))
      .map((x) => x.row),
  };
}

function byColumn(rows: readonly AnalysisEpisode[], id: string, title: string, columns: readonly { name: string; of: (r: AnalysisEpisode) => boolean }[], extra: Partial<PaperTable>): PaperTable {
  return {
    id, title,
    unit: 'SplatScore (points)',
    n: 'episodes; k = participants or runs in the cell, shown where under 5',
    interval: `95% ${CLUSTER_NOTE}`,
    statistic: 'mean over episodes',
    ...extra,
    columns: ['Player', ...columns.map((c) => c.name), 'n'],
    rows: groupsOf(rows).map((g) => {
      const mine = rows.filter((r) => r.group === g);
      return [groupName(g), ...columns.map((c) => ciOf(ci(mine.filter(c.of), `${id}\u0000${g}\u0000${c.name}`))), String(mine.length)];
    }),
  };
}

function effortTable(rows: readonly AnalysisEpisode[]): PaperTable {
  const models = rows.filter((r) => r.kind === 'model' && r.model !== null);
  const efforts = [...new Set(models.map((r) => r.effort ?? 'default'))].sort((a, b) => (EFFORT_ORDER.indexOf(a) + 99) % 99 - (EFFORT_ORDER.indexOf(b) + 99) % 99 || a.localeCompare(b));
  const names = [...new Set(models.map((r) => r.model as string))].sort();
  const cost = (mine: readonly AnalysisEpisode[]): string => usd(meanOrNull(nums(mine.map((r) => r.costUsd))));
  return {
    id: 'splatbench-effort',
    title: 'Reasoning effort: SplatScore and cost per episode at each effort',
    unit: 'SplatScore (points); cost in USD per episode',
    n: 'episodes per model and effort (the n columns)',
    interval: 'none (the seed prints means only)',
    statistic: 'mean over the model\'s episodes at that effort, all SplatBench task kinds of the sweep',
    columns: ['Model', ...efforts, ...efforts.map((e) => `Cost per episode at ${e}`), ...efforts.map((e) => `n at ${e}`)],
    rows: names.map((m) => {
      const at = (e: string) => models.filter((r) => r.model === m && (r.effort ?? 'default') === e);
      return [m, ...efforts.map((e) => numCell(meanOrNull(nums(at(e).map((r) => r.score))))), ...efforts.map((e) => cost(at(e))), ...efforts.map((e) => String(at(e).length))];
    }),
  };
}

function headingTables(rows: readonly AnalysisEpisode[]): PaperTable[] {
  const reass = rows.filter((r) => r.taskKind === 'reassembly' && r.headingErrors !== null);
  return [...new Set(reass.map((r) => r.object))].sort().map((object) => {
    const mine = reass.filter((r) => r.object === object);
    const groups = groupsOf(mine);
    // A model's first run, as the seed's table; people: the mean over participants.
    const episodesOf = (g: string): AnalysisEpisode[] => {
      const of = mine.filter((r) => r.group === g);
      if (of[0]?.kind === 'human') return of;
      const first = [...of].sort((a, b) => a.cluster.localeCompare(b.cluster, undefined, { numeric: true }))[0];
      return first ? [first] : [];
    };
    const parts = [...new Set(mine.flatMap((r) => r.headingNames ?? r.headingParts ?? []))];
    const errorOf = (r: AnalysisEpisode, part: string): number | null => {
      const i = (r.headingNames ?? r.headingParts ?? []).indexOf(part);
      return i < 0 ? null : (r.headingErrors?.[i] ?? null);
    };
    return {
      id: `splatbench-heading-${object}`,
      title: `Reassembly of the ${object}: final heading error per part`,
      unit: 'degrees of heading error about the vertical axis (0 = the true heading); final score in SplatScore points',
      n: 'one episode per model (its first run); People: every participant\'s episode of the task',
      interval: 'none',
      statistic: 'a model\'s first run; People: mean over participants',
      notes: [`Parts are named from the object's authoring (its primitive groups; left and right as seen from the front). Within ${HEADING_THRESHOLD_DEG} degrees counts as turned back.`],
      columns: ['Part', ...groups.map(groupName)],
      rows: [
        ...parts.map((part) => [part, ...groups.map((g) => {
          const v = meanOrNull(nums(episodesOf(g).map((r) => errorOf(r, part))));
          return v === null ? '–' : `${v.toFixed(0)}°`;
        })]),
        ['Final score', ...groups.map((g) => numCell(meanOrNull(nums(episodesOf(g).map((r) => r.score)))))],
      ],
    };
  });
}

function mirrorTable(report: AnalysisReport): PaperTable {
  return {
    id: 'splatbench-mirror',
    title: 'The mirror test: held-out silhouette IoU of the build and of its mirror image',
    unit: 'silhouette IoU (0 to 1) over the held-out views',
    n: 'finished sculpt and one-shot builds per row',
    interval: 'none',
    statistic: "mean over builds; drop = IoU minus mirrored IoU (near 0: the build fits the mirrored object as well as the object); ceiling = the reference fit's own drop across the same plane (what a build that follows the object can lose)",
    columns: ['Player', 'IoU', 'Mirrored IoU', 'Drop', 'Ceiling', 'n'],
    // Each player's row over every object source (per-source rows are in the by-source table).
    rows: report.mirror.filter((m) => m.source === ALL_SOURCES).map((m) => [groupName(m.group), numCell(m.iou, 3), numCell(m.mirroredIou, 3), numCell(m.drop, 3), numCell(m.ceiling, 3), String(m.n)]),
  };
}

function bestFinalTable(rows: readonly AnalysisEpisode[]): PaperTable {
  const out: string[][] = [];
  for (const kind of KINDS) {
    for (const g of groupsOf(rows)) {
      const bf = rows.filter((r) => r.taskKind === kind && r.group === g).map((r) => bestAndFinal(r.curve, r.score)).filter((b) => b.best !== null && b.final !== null);
      if (!bf.length) continue;
      const best = meanOrNull(bf.map((b) => b.best as number));
      const final = meanOrNull(bf.map((b) => b.final as number));
      out.push([KIND_NAME[kind], groupName(g), numCell(best), numCell(final), numCell(best !== null && final !== null ? best - final : null), String(bf.length)]);
    }
  }
  return {
    id: 'splatbench-best-final',
    title: 'Best intermediate vs final scene',
    unit: 'SplatScore (points) of the hidden held-out grade',
    n: 'finished episodes',
    interval: 'none',
    statistic: 'mean over episodes of the best score after any call and of the submitted score; gap = best - final',
    columns: ['Task kind', 'Player', 'Best', 'Final', 'Gap', 'n'],
    rows: out,
  };
}

/** Calls at which the score-over-calls table reads the curve. */
const CHECKPOINTS = [0, 5, 10, 20, 30, 40];

function curveTable(report: AnalysisReport): PaperTable {
  return {
    id: 'splatbench-score-over-calls',
    title: 'Score over calls: median hidden score after each number of calls',
    unit: 'SplatScore (points)',
    n: 'episodes per row (an episode that ended earlier carries its last score)',
    interval: 'none here (the figure draws the interquartile band)',
    statistic: 'median over episodes',
    columns: ['Task kind', 'Player', ...CHECKPOINTS.map((c) => `call ${c}`), 'n'],
    rows: report.curves.map((c) => [KIND_NAME[c.taskKind], groupName(c.group), ...CHECKPOINTS.map((k) => numCell(c.points.find((p) => p.call === k)?.median ?? null)), String(c.n)]),
  };
}

/** Every SplatBench table the study's episodes can fill (a table with no rows is left out). */
export function splatbenchPaperTables(all: readonly AnalysisEpisode[], report: AnalysisReport): PaperTable[] {
  const rows = scored(all);
  if (!rows.length) return [];
  const kindCols = KINDS.filter((k) => rows.some((r) => r.taskKind === k)).map((k) => ({ name: KIND_NAME[k], of: (r: AnalysisEpisode) => r.taskKind === k }));
  const sourceCols = OBJECT_SOURCES.filter((s) => rows.some((r) => (r.source ?? 'procedural') === s)).map((s) => ({ name: s, of: (r: AnalysisEpisode) => (r.source ?? 'procedural') === s }));
  const oneShot = rows.filter((r) => r.taskKind === 'oneshot' || r.taskKind === 'sculpt');
  const tables = [
    leaderboard(rows),
    byColumn(rows, 'splatbench-by-kind', 'SplatScore per task kind', kindCols, {}),
    byColumn(rows.filter((r) => r.taskKind !== 'oneshot'), 'splatbench-by-source', 'SplatScore per object source (full episodes)', sourceCols, { notes: ['Object source from the task file (procedural, synthetic: NeRF-Synthetic, photographed captures); a task without one is procedural.'] }),
    effortTable(rows),
    oneShot.some((r) => r.taskKind === 'oneshot') ? byColumn(oneShot, 'splatbench-oneshot', 'One-shot vs full episodes (sculpt)', [{ name: 'One-shot', of: (r) => r.taskKind === 'oneshot' }, { name: 'Full', of: (r) => r.taskKind === 'sculpt' }], {}) : null,
    ...headingTables(rows),
    mirrorTable(report),
    bestFinalTable(rows),
    curveTable(report),
  ];
  return tables.filter((t): t is PaperTable => t !== null && t.rows.length > 0);
}
