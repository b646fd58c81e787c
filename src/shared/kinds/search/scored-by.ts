// What gave the accuracy of a set of scored search episodes, in one line for every place that
// reports it (Results, the paper's tables, `splatlab report`; docs/TASKS.md "Scoring search
// episodes"): rater marks over judge marks over the exact checker. An open answer that no rater
// or judge has marked falls back to the exact checker (episodeAccuracy in ./aggregate.ts); the line
// counts those apart, as the exact checker's provisional reading, so no figure passes one off as
// judged. Input: episode rows. Output: the counts and the line.
// Invariant: excluded episodes are not counted (they are in no statistic either).
import type { SearchEpisodeRow } from './scores';

export interface ScoredByCounts {
  rater: number;
  judge: number;
  exact: number;
  /** Of the exact ones, open (free-text) answers not yet judged: a provisional reading. */
  unjudgedOpen: number;
  none: number;
}

export function scoredByCounts(rows: readonly SearchEpisodeRow[]): ScoredByCounts {
  const c: ScoredByCounts = { rater: 0, judge: 0, exact: 0, unjudgedOpen: 0, none: 0 };
  for (const r of rows) {
    if (r.excluded !== null) continue;
    c[r.scoredBy]++;
    if (r.scoredBy === 'exact' && r.answerType === 'text') c.unjudgedOpen++;
  }
  return c;
}

/** "accuracy from R rater marks, J judge marks, E exact checks (U open answers not yet judged: ...), N without an answer". */
export function scoredByLine(rows: readonly SearchEpisodeRow[]): string {
  const c = scoredByCounts(rows);
  const provisional = c.unjudgedOpen ? ` (${c.unjudgedOpen} of them open answers not yet judged: the exact checker's provisional reading)` : '';
  return `accuracy from ${c.rater} rater marks, ${c.judge} judge marks, ${c.exact} exact checks${provisional}, ${c.none} without an answer`;
}
