// Aggregates of scored search episodes: per source (the human pool, each model, each baseline)
// and per question family, the mean accuracy (LLM-Match-style 0..100), success, steps, path
// length and collision rate with 95% percentile bootstrap intervals. Also the episode's accuracy
// from its marks: rater over judge over the exact checker.
// Inputs: SearchEpisodeRow records (src/shared/kinds/search/api-scores.ts). Output: SearchCell records.
// Invariant: seeded, so the same episodes give the same intervals; with two or more answerers
// the bootstrap resamples answerers (clusters), otherwise episodes; an excluded episode (or one
// of a withdrawn participant) is in no cell.
import { clusteredBootstrapCi } from '../../analysis/cluster-bootstrap';
import type { JudgeRecord, RaterRecord, SearchCell, SearchEpisodeRow, SearchMetric } from './scores';
import { SEARCH_METRICS } from './scores';
import { bootstrapMeanCi, BOOTSTRAP_DEFAULTS } from '../../analysis/bootstrap';

export const SEARCH_RESAMPLES = BOOTSTRAP_DEFAULTS.resamples;

/**
 * The accuracy of one episode and what gave it. A closed answer type is always exact; a free-text
 * answer takes the mean of its raters' scores, else the newest parseable judge mark (5 correct:
 * 100, any other mark 0, as E3VS counts judge accuracy), else the
 * exact checker. No answer (the steps ran out) scores 0.
 */
export function episodeAccuracy(answer: string | null, correct: boolean, freeText: boolean, judges: readonly JudgeRecord[], raters: readonly RaterRecord[]): { accuracy: number; scoredBy: SearchEpisodeRow['scoredBy'] } {
  if (answer === null) return { accuracy: 0, scoredBy: 'none' };
  if (freeText && raters.length > 0) return { accuracy: raters.reduce((s, r) => s + r.score, 0) / raters.length, scoredBy: 'rater' };
  const judged = freeText ? [...judges].reverse().find((j) => j.mark !== null) : undefined;
  // E3VS's judge accuracy: a mark of 5 is correct, anything else is not.
  if (judged && judged.mark !== null) return { accuracy: judged.mark === 5 ? 100 : 0, scoredBy: 'judge' };
  return { accuracy: correct ? 100 : 0, scoredBy: 'exact' };
}

function metricValue(r: SearchEpisodeRow, m: SearchMetric): number {
  switch (m) {
    case 'accuracy': return r.accuracy;
    case 'success': return r.success ? 1 : 0;
    case 'steps': return r.steps;
    case 'path_length': return r.path_length;
    case 'collision': return r.collision;
  }
}

function cell(source: string, who: SearchCell['who'], group: string, rows: readonly SearchEpisodeRow[], seed: number): SearchCell {
  const answerers = new Set(rows.map((r) => r.answerer)).size;
  const metrics = Object.fromEntries(SEARCH_METRICS.map((m) => {
    const ci = answerers >= 2
      ? clusteredBootstrapCi(rows.map((r) => ({ cluster: r.answerer, value: metricValue(r, m) })), { seed, resamples: SEARCH_RESAMPLES })
      : bootstrapMeanCi(rows.map((r) => metricValue(r, m)), { seed, resamples: SEARCH_RESAMPLES });
    return [m, { mean: ci.mean, low: ci.low, high: ci.high }];
  })) as SearchCell['metrics'];
  return { source, who, group, n: rows.length, answerers, metrics };
}

const WHO_ORDER = { human: 0, model: 1, baseline: 2 } as const;

export function aggregateSearch(rows: readonly SearchEpisodeRow[], seed: number = BOOTSTRAP_DEFAULTS.seed): SearchCell[] {
  const sources = new Map<string, SearchEpisodeRow[]>();
  for (const r of rows) {
    if (r.excluded !== null) continue;
    const key = `${r.who}\u0000${r.source}`;
    sources.set(key, [...(sources.get(key) ?? []), r]);
  }
  const keys = [...sources.keys()].sort((a, b) => {
    const [wa, sa] = a.split('\u0000') as [SearchCell['who'], string];
    const [wb, sb] = b.split('\u0000') as [SearchCell['who'], string];
    return WHO_ORDER[wa] - WHO_ORDER[wb] || sa.localeCompare(sb);
  });
  const cells: SearchCell[] = [];
  for (const k of keys) {
    const mine = sources.get(k) ?? [];
    const { who, source } = mine[0];
    cells.push(cell(source, who, 'all', mine, seed));
    for (const family of [...new Set(mine.map((r) => r.family))].sort()) cells.push(cell(source, who, family, mine.filter((r) => r.family === family), seed));
  }
  return cells;
}
