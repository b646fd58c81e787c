// The report's figures: each analysis as a chart (SVG) and a table (CSV) with the same numbers,
// named by a stable id (the file name in `splatlab report`, the export name in Results).
// Input: an AnalysisReport. Output: Figure[] in reading order. Invariant: every figure's title
// or axis names the unit, every series carries its n, and the CSV holds exactly what is drawn.
import { toCsv } from './csv';
import { bandChart, barChart, pairedBarChart, scatterChart } from './charts';
import { HEADING_THRESHOLD_DEG } from './heading';
import type { AnalysisReport } from './report';

export interface Figure {
  id: string;
  title: string;
  svg: string;
  csv: string;
}

const KIND_NAME = { sculpt: 'Sculpt', reassembly: 'Reassembly', oneshot: 'One-shot' } as const;
const KIND_SHORT = { sculpt: 'sculpt', reassembly: 'reass.', oneshot: '1-shot' } as const;

export function reportFigures(r: AnalysisReport): Figure[] {
  const figs: Figure[] = [];
  for (const kind of ['sculpt', 'reassembly', 'oneshot'] as const) {
    const rows = r.scores.filter((s) => s.taskKind === kind);
    if (!rows.length) continue;
    figs.push({
      id: `score-${kind}`,
      title: `${KIND_NAME[kind]}: SplatScore by player group`,
      svg: barChart(`${KIND_NAME[kind]}: SplatScore, mean and clustered 95% bootstrap CI`, 'SplatScore (points; 100 = gradient-descent fit)', rows.map((s) => ({ label: s.group, value: s.mean, low: s.low, high: s.high, n: s.n })), 'n = finished episodes; intervals resample whole participants (humans) or runs (models).'),
      csv: toCsv([
        { name: 'task_kind', value: (s: (typeof rows)[number]) => s.taskKind },
        { name: 'group', value: (s) => s.group },
        { name: 'n_episodes', value: (s) => s.n },
        { name: 'n_clusters', value: (s) => s.clusters },
        { name: 'mean_score', value: (s) => s.mean },
        { name: 'ci95_low', value: (s) => s.low },
        { name: 'ci95_high', value: (s) => s.high },
      ], rows),
    });
    const curves = r.curves.filter((c) => c.taskKind === kind);
    figs.push({
      id: `curve-${kind}`,
      title: `${KIND_NAME[kind]}: score over calls`,
      svg: bandChart(`${KIND_NAME[kind]}: hidden SplatScore after each call (median, 25-75% band)`, 'SplatScore (points)', curves.map((c) => ({ label: c.group, n: c.n, points: c.points })), 'n = episodes per group; a finished episode keeps its final score.'),
      csv: toCsv([
        { name: 'group', value: (p: { group: string; call: number; n: number; median: number; low: number; high: number }) => p.group },
        { name: 'call', value: (p) => p.call },
        { name: 'n', value: (p) => p.n },
        { name: 'median', value: (p) => p.median },
        { name: 'q25', value: (p) => p.low },
        { name: 'q75', value: (p) => p.high },
      ], curves.flatMap((c) => c.points.map((p) => ({ group: c.group, ...p })))),
    });
    const bf = r.bestFinal.filter((b) => b.taskKind === kind);
    figs.push({
      id: `best-final-${kind}`,
      title: `${KIND_NAME[kind]}: best intermediate vs final score`,
      svg: pairedBarChart(`${KIND_NAME[kind]}: best intermediate vs final SplatScore (means)`, 'SplatScore (points)', ['best at any call', 'final (submitted)'], bf.map((b) => ({ label: b.group, a: b.best, b: b.final, n: b.n })), 'n = finished episodes with hidden scores logged.'),
      csv: toCsv([
        { name: 'group', value: (b: (typeof bf)[number]) => b.group },
        { name: 'n', value: (b) => b.n },
        { name: 'mean_best', value: (b) => b.best },
        { name: 'mean_final', value: (b) => b.final },
      ], bf),
    });
  }
  if (r.sources.length) {
    const rows = r.sources;
    figs.push({
      id: 'score-by-source',
      title: 'SplatScore per object source',
      svg: barChart('SplatScore per object source, mean and clustered 95% CI', 'SplatScore (points; 100 = gradient-descent fit)', rows.map((x) => ({ label: `${KIND_SHORT[x.taskKind]} ${x.group} (${x.source})`, value: x.mean, low: x.low, high: x.high, n: x.n })), 'n = finished episodes; sources: procedural, synthetic (NeRF), photographed; "all" pools them.'),
      csv: toCsv([
        { name: 'task_kind', value: (x: (typeof rows)[number]) => x.taskKind },
        { name: 'group', value: (x) => x.group },
        { name: 'source', value: (x) => x.source },
        { name: 'n_episodes', value: (x) => x.n },
        { name: 'n_clusters', value: (x) => x.clusters },
        { name: 'mean_score', value: (x) => x.mean },
        { name: 'ci95_low', value: (x) => x.low },
        { name: 'ci95_high', value: (x) => x.high },
      ], rows),
    });
  }
  if (r.mirror.length) {
    const label = (m: AnalysisReport['mirror'][number]): string => (m.source === 'all' ? m.group : `${m.group} (${m.source})`);
    figs.push({
      id: 'mirror',
      title: 'Mirror test and its ceiling',
      svg: pairedBarChart('Mirror test: held-out IoU lost when mirrored, beside its ceiling', 'IoU lost (0-1, mean over held-out views)', ['build', 'reference fit (ceiling)'], r.mirror.map((m) => ({ label: label(m), a: m.drop, b: m.ceiling, n: m.n })), 'n = sculpt + one-shot builds; vertical plane through the centre where the fit loses most.'),
      csv: toCsv([
        { name: 'group', value: (m: AnalysisReport['mirror'][number]) => m.group },
        { name: 'source', value: (m) => m.source },
        { name: 'n', value: (m) => m.n },
        { name: 'iou', value: (m) => m.iou },
        { name: 'mirrored_iou', value: (m) => m.mirroredIou },
        { name: 'drop', value: (m) => m.drop },
        { name: 'fit_drop_ceiling', value: (m) => m.ceiling },
      ], r.mirror),
    });
  }
  if (r.heading.length) {
    figs.push({
      id: 'heading',
      title: 'Reassembly heading errors',
      svg: barChart(`Reassembly: share of parts within ${HEADING_THRESHOLD_DEG} deg of their true heading`, 'share of parts (0-1)', r.heading.map((h) => ({ label: h.group, value: h.share, n: h.parts })), 'n = parts over all finished reassembly episodes; a missing or unmatched part counts as not within.'),
      csv: toCsv([
        { name: 'group', value: (h: AnalysisReport['heading'][number]) => h.group },
        { name: 'episodes', value: (h) => h.episodes },
        { name: 'parts', value: (h) => h.parts },
        { name: 'within_15deg', value: (h) => h.within },
        { name: 'share', value: (h) => h.share },
        { name: 'mean_error_deg', value: (h) => h.meanDeg },
      ], r.heading),
    });
  }
  if (r.headingParts.length) {
    figs.push({
      id: 'heading-parts',
      title: 'Reassembly heading error per part',
      svg: barChart('Reassembly: mean heading error per part against its true pose', 'heading error (degrees, 0-180)', r.headingParts.map((h) => ({ label: `${h.group}: ${h.object}/${h.part}`, value: h.meanDeg, n: h.n })), 'n = episodes with this part; part labels are the task\'s (shuffled) group labels.'),
      csv: toCsv([
        { name: 'group', value: (h: AnalysisReport['headingParts'][number]) => h.group },
        { name: 'object', value: (h) => h.object },
        { name: 'part', value: (h) => h.part },
        { name: 'n', value: (h) => h.n },
        { name: 'within_15deg', value: (h) => h.within },
        { name: 'mean_error_deg', value: (h) => h.meanDeg },
      ], r.headingParts),
    });
  }
  if (r.oneShot.length) {
    figs.push({
      id: 'oneshot-full',
      title: 'One-shot vs full episodes',
      svg: pairedBarChart('One-shot (1 call, no renders) vs full sculpt episodes: mean SplatScore', 'SplatScore (points)', ['one-shot', 'full'], r.oneShot.map((o) => ({ label: o.group, a: o.oneShot, b: o.full, n: o.nOneShot + o.nFull })), 'n = one-shot + full finished episodes.'),
      csv: toCsv([
        { name: 'group', value: (o: AnalysisReport['oneShot'][number]) => o.group },
        { name: 'n_oneshot', value: (o) => o.nOneShot },
        { name: 'mean_oneshot', value: (o) => o.oneShot },
        { name: 'n_full', value: (o) => o.nFull },
        { name: 'mean_full', value: (o) => o.full },
      ], r.oneShot),
    });
  }
  figs.push({
    id: 'cost-time',
    title: 'Cost and time per episode',
    svg: barChart('Active time per episode (mean)', 'active seconds per episode', r.cost.map((c) => ({ label: c.group, value: c.seconds, n: c.n })), 'Active time: wall time less pauses and downtime, up to the submitting call (people and models alike). n = finished episodes; model cost (USD, from the price table) is in the CSV.'),
    csv: toCsv([
      { name: 'group', value: (c: AnalysisReport['cost'][number]) => c.group },
      { name: 'n', value: (c) => c.n },
      { name: 'mean_seconds', value: (c) => c.seconds },
      { name: 'n_priced', value: (c) => c.nCost },
      { name: 'mean_cost_usd', value: (c) => c.costUsd },
    ], r.cost),
  });
  if (r.effort.length) {
    figs.push({
      id: 'effort',
      title: 'Reasoning-effort sweep',
      svg: scatterChart('Reasoning effort: mean SplatScore vs mean cost per episode', 'cost per episode (USD)', 'SplatScore (points)', r.effort.filter((e) => e.mean !== null).map((e) => ({ label: `${e.model} @${e.effort}`, x: e.costUsd ?? 0, y: e.mean as number, n: e.n })), 'n = finished episodes per model and effort; unpriced models sit at cost 0.'),
      csv: toCsv([
        { name: 'model', value: (e: AnalysisReport['effort'][number]) => e.model },
        { name: 'effort', value: (e) => e.effort },
        { name: 'n', value: (e) => e.n },
        { name: 'mean_score', value: (e) => e.mean },
        { name: 'mean_cost_usd', value: (e) => e.costUsd },
      ], r.effort),
    });
  }
  return figs;
}
