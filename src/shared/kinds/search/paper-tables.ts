// The view-search (E3VS-style) tables of the paper (../shared/seeds/e3vs-bench.txt; docs/STUDIES.md
// "The paper's tables"): judge accuracy, success, average steps and collision rate per player,
// and accuracy per question family, people beside every model.
// Input: the study's scored search episodes (src/main/kinds/search/study/results.ts). Output:
// PaperTable[]. Invariants: an excluded episode (or one of a withdrawn participant) is in no cell;
// intervals resample answerers (participants, a model's runs) as paperInterval does.
import { ciOf, paperInterval, type PaperTable } from '../../analysis/paper-table';
import type { SearchEpisodeRow } from './scores';
import { scoredByLine } from './scored-by';

const PEOPLE = 'People';
const nameOf = (r: SearchEpisodeRow): string => (r.who === 'human' ? PEOPLE : r.source);
const CLUSTERS = 'clustered percentile bootstrap, 2000 resamples of whole participants (People) or whole runs (a model)';

function playersOf(rows: readonly SearchEpisodeRow[]): string[] {
  const models = [...new Set(rows.filter((r) => r.who === 'model').map((r) => r.source))].sort();
  return [...(rows.some((r) => r.who === 'human') ? [PEOPLE] : []), ...models];
}

export function searchPaperTables(all: readonly SearchEpisodeRow[]): PaperTable[] {
  const rows = all.filter((r) => r.excluded === null && r.who !== 'baseline');
  if (!rows.length) return [];
  const players = playersOf(rows);
  const cell = (mine: readonly SearchEpisodeRow[], key: string, value: (r: SearchEpisodeRow) => number, digits = 1): string =>
    ciOf(paperInterval(mine.map((r) => ({ cluster: r.answerer, value: value(r) })), key), digits);
  const main: PaperTable = {
    id: 'search-e3vs',
    title: 'View search: judge accuracy, success, average steps and collision rate',
    unit: 'accuracy, success and collision rate in per cent of episodes; steps per episode',
    n: 'episodes (n) of k participants or runs',
    interval: `95% ${CLUSTERS}`,
    statistic: 'mean over episodes',
    notes: ['Judge accuracy: a free-text answer marked 5 by the LLM judge (or the raters\' mean) is correct, as E3VS counts it; closed answers by the exact checker. Collision rate: episodes with any collision.', `${scoredByLine(rows)}.`],
    columns: ['Player', 'Judge accuracy [95% CI]', 'Success [95% CI]', 'Average steps [95% CI]', 'Collision rate [95% CI]', 'n', 'k'],
    rows: players.map((p) => {
      const mine = rows.filter((r) => nameOf(r) === p);
      return [
        p,
        cell(mine, `search-e3vs\u0000${p}\u0000accuracy`, (r) => r.accuracy),
        cell(mine, `search-e3vs\u0000${p}\u0000success`, (r) => (r.success ? 100 : 0)),
        cell(mine, `search-e3vs\u0000${p}\u0000steps`, (r) => r.steps),
        cell(mine, `search-e3vs\u0000${p}\u0000collision`, (r) => 100 * r.collision),
        String(mine.length),
        String(new Set(mine.map((r) => r.answerer)).size),
      ];
    }),
  };
  const families = [...new Set(rows.map((r) => r.family))].sort();
  const byFamily: PaperTable = {
    id: 'search-by-family',
    title: 'View search: judge accuracy per question family',
    unit: 'per cent of episodes answered correctly',
    n: 'episodes per cell (the n columns)',
    interval: `95% ${CLUSTERS}`,
    statistic: 'mean over episodes',
    columns: ['Player', ...families, ...families.map((f) => `n ${f}`)],
    rows: players.map((p) => {
      const mine = rows.filter((r) => nameOf(r) === p);
      return [p, ...families.map((f) => {
        const of = mine.filter((r) => r.family === f);
        return of.length ? cell(of, `search-by-family\u0000${p}\u0000${f}`, (r) => r.accuracy) : '–';
      }), ...families.map((f) => String(mine.filter((r) => r.family === f).length))];
    }),
  };
  return [main, byFamily];
}
