// The search kind's part of `splatlab report` (MainKindModule.report; docs/AGENTS.md "Analyses"):
// per player group (participants, each model with its settings) and per question family, the
// mean accuracy (LLM-Match-style 0..100), success, steps, path length and collision rate with 95%
// bootstrap intervals (src/shared/kinds/search/aggregate.ts, as Results shows a study's), and the
// scored episodes. Input: the report's logs and the tasks folder. Output: KindReport or null.
// Invariant: only finished logs of search tasks, practice left out; each answer is checked again
// from the logged `stop` call, never taken from the end record.
import { toCsv } from '../../../shared/analysis/csv';
import { aggregateSearch } from '../../../shared/kinds/search/aggregate';
import { searchKind } from '../../../shared/kinds/search/kind';
import { SEARCH_METRICS, type SearchCell, type SearchEpisodeRow } from '../../../shared/kinds/search/scores';
import { SEARCH_TABLE } from '../../../shared/kinds/search/export-table';
import { scoredByLine } from '../../../shared/kinds/search/scored-by';
import { tableCsv } from '../../../shared/study/export-tables';
import { readTrajectory } from '../../env/trajectory';
import type { KindReport, KindReportLog } from '../kind';
import { searchSpecs } from './log-score';
import { searchLogRow } from './log-row';

/** One column per metric bound: accuracy_mean, accuracy_low, accuracy_high, success_mean, ... */
function cellsCsv(cells: readonly SearchCell[]): string {
  const bounds = ['mean', 'low', 'high'] as const;
  return toCsv<SearchCell>([
    { name: 'group', value: (c) => c.source },
    { name: 'who', value: (c) => c.who },
    { name: 'question_family', value: (c) => c.group },
    { name: 'n', value: (c) => c.n },
    { name: 'answerers', value: (c) => c.answerers },
    ...SEARCH_METRICS.flatMap((m) => bounds.map((b) => ({ name: `${m}_${b}`, value: (c: SearchCell) => c.metrics[m][b] }))),
  ], cells);
}

export function searchReport(logs: readonly KindReportLog[], tasksDir: string): KindReport | null {
  const specOf = searchSpecs(tasksDir);
  const rows: SearchEpisodeRow[] = [];
  for (const log of logs) {
    if (log.practice) continue;
    const traj = readTrajectory(log.path);
    const taskId = traj.header?.task;
    const spec = taskId ? specOf(taskId) : null;
    if (!spec) continue;
    // A model's unit is its run; a participant is one answerer over all their episodes.
    const answerer = log.kind === 'model' ? `${log.group}#${log.cluster}` : log.cluster;
    const row = searchLogRow({ rel: log.path, who: log.kind, source: log.group, answerer, spec }, log.path, traj);
    if (row) rows.push(row);
  }
  if (!rows.length) return null;
  const cells = aggregateSearch(rows);
  return {
    family: searchKind.family,
    episodes: rows.length,
    metrics: { cells },
    tables: [
      { id: 'search-metrics', title: `Search: accuracy (0-100), success (share), steps, path length and collision rate (share) per group and question family, mean with 95% bootstrap CI; n episodes; ${scoredByLine(rows)}`, csv: cellsCsv(cells) },
      { id: 'search-episodes', title: 'Search: scored episodes', csv: tableCsv(SEARCH_TABLE, rows) },
    ],
  };
}
