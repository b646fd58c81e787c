// The search aggregates as a bar chart with 95% intervals (src/shared/analysis/charts.ts): one
// bar per source (humans, each model, each baseline) for one metric and question family, the
// same SVG text shown in Results and exported as SVG or PNG.
// Input: SearchCell records, a metric, a group. Output: SVG text.
import { barChart } from '../../../shared/analysis/charts';
import type { SearchCell, SearchMetric } from '../../../shared/kinds/search/scores';

export const METRIC_LABELS: Record<SearchMetric, { title: string; unit: string; scale: number }> = {
  accuracy: { title: 'Accuracy (LLM-Match score)', unit: 'score 0-100', scale: 1 },
  success: { title: 'Success (stopped at an answerable view)', unit: '% of episodes', scale: 100 },
  steps: { title: 'Steps used', unit: 'steps', scale: 1 },
  path_length: { title: 'Path length', unit: 'metres', scale: 1 },
  collision: { title: 'Collision rate', unit: '% of episodes', scale: 100 },
};

export function searchChart(cells: readonly SearchCell[], metric: SearchMetric, group: string): string {
  const m = METRIC_LABELS[metric];
  const scaled = (v: number | null) => (v === null ? null : v * m.scale);
  const bars = cells.filter((c) => c.group === group).map((c) => ({
    label: `${c.who === 'human' ? 'humans' : c.source}${c.who === 'baseline' ? ' (baseline)' : ''}`,
    value: scaled(c.metrics[metric].mean), low: scaled(c.metrics[metric].low), high: scaled(c.metrics[metric].high), n: c.n,
  }));
  return barChart(`View search: ${m.title}${group === 'all' ? '' : `, ${group} questions`}`, m.unit, bars, 'Whiskers: 95% bootstrap intervals (over answerers when there are two or more, else over episodes).');
}
