// One scored search episode from its log (docs/STUDIES.md, the search kind's results): the numbers
// of its end record (success, steps, path length, collision) and the answer of its `stop` call
// checked again, with the accuracy
// from its rater and judge marks (src/shared/kinds/search/aggregate.ts `episodeAccuracy`). Study
// results (./study/results.ts) and `splatlab report` (./report.ts) build their rows here.
// Input: a reference (who played, in which group), a trajectory. Output: a SearchEpisodeRow.
// Invariant: correctness depends on the logged answer and the task only, never on the end record's claim.
import type { SearchTaskSpec } from '../../../shared/kinds/search/kind';
import type { JudgeRecord, RaterRecord, SearchEpisodeRow } from '../../../shared/kinds/search/scores';
import { episodeAccuracy } from '../../../shared/kinds/search/aggregate';
import { checkAnswer } from '../../../shared/kinds/search/answers';
import type { Trajectory } from '../../env/trajectory';
import { stopAnswer } from './judge';
import { readJudgements, readRatings } from './judge-store';

export interface EndNumbers { success: boolean; steps: number; path_length: number; collision: 0 | 1 }

/** Where a row comes from: its log (as the row names it), who played it, their group and cluster. */
export interface SearchRowRef {
  rel: string;
  who: SearchEpisodeRow['who'];
  source: string;
  answerer: string;
  spec: SearchTaskSpec;
  excluded: string | null;
}

/** The end record's numbers, or null for a log that never ended. */
export function endNumbers(traj: Trajectory): EndNumbers | null {
  const e = traj.end as Record<string, unknown> | null;
  if (!e || typeof e.steps !== 'number' || typeof e.path_length !== 'number') return null;
  return { success: e.success === true, steps: e.steps, path_length: e.path_length, collision: e.collision === 1 ? 1 : 0 };
}

export function searchRow(ref: SearchRowRef, answer: string | null, end: EndNumbers, judged: { judges: readonly JudgeRecord[]; raters: readonly RaterRecord[] }): SearchEpisodeRow {
  const q = ref.spec.question;
  const correct = answer !== null && checkAnswer(q.answer, answer);
  const { accuracy, scoredBy } = episodeAccuracy(answer, correct, q.answer.type === 'text', judged.judges, judged.raters);
  return {
    ref: ref.rel, who: ref.who, source: ref.source, answerer: ref.answerer, taskId: ref.spec.task_id, family: q.family, answerType: q.answer.type,
    answer, correct, accuracy, scoredBy, ...end, excluded: ref.excluded,
  };
}

/** The row of one finished log at `path` (its marks read from beside it), or null when it never ended. */
export function searchLogRow(ref: Omit<SearchRowRef, 'excluded'>, path: string, traj: Trajectory): SearchEpisodeRow | null {
  const end = endNumbers(traj);
  return end ? searchRow({ ...ref, excluded: null }, stopAnswer(traj), end, { judges: readJudgements(path), raters: readRatings(path) }) : null;
}
