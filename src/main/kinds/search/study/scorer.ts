// The search kind's Inspect scorer (src/main/kinds/scorer.ts): the answer checked against the
// task's answer, the logged calls replayed through the rules (../regrade.ts).
// Input: a trajectory and its search task. Output: 1 correct, 0 not, with the path's outcome.
// Invariant: a log whose calls do not replay throws with the first problem.
import { searchKind } from '../../../../shared/kinds/search/kind';
import type { KindScorer } from '../../scorer';
import type { SearchTask } from '../env';
import { regradeSearch } from '../regrade';

export const searchScorer: KindScorer = {
  name: 'search_checker',
  description: "search: the answer checked against the task's answer (1 correct, 0 not), the calls replayed through the rules",
  family: searchKind.family,
  async score({ traj, task }) {
    const r = regradeSearch(task as SearchTask, traj);
    if (r.problems.length) throw new Error(`the log does not replay: ${r.problems[0]}`);
    const o = r.outcome;
    return {
      value: o.correct ? 1 : 0,
      answer: o.answer,
      explanation: `${o.correct ? 'correct' : 'not correct'}; ${o.success ? 'stopped where the answer is visible' : 'not at an answering view'}; ${o.steps} steps, ${o.collisions} collisions`,
      metadata: { success: o.success, steps: o.steps, path_length: o.path_length, collisions: o.collisions, final_distance: o.final_distance, reason: o.reason },
    };
  },
};
