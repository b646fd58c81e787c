// The measures of a search episode (docs/DESIGN.md section 9): per viewpoint the hidden distance
// to the nearest answerable viewpoint and the answerable flag; per episode correctness, success
// (stopped at an answerable viewpoint), steps, path length and collision rate.
// Inputs: a task spec, the room's answerability (visibility rule or annotation) and the pure rules after the episode.
// Invariant: computed from the rules' state alone, so a replay of the log gives the same numbers.
import type { SearchTaskSpec } from './kind';
import { readAnswer } from './answers';
import type { Pose } from './pose';
import type { SearchRules } from './rules';
import type { Answerability } from './answerability';

const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

export function hiddenAt(spec: SearchTaskSpec, vis: Answerability, pose: Pose): { distance: number; answerable: boolean } {
  const distance = Math.min(...spec.answerable.map((a) => Math.hypot(a.x - pose.x, a.y - pose.y, a.z - pose.z)));
  return { distance: r6(distance), answerable: vis.answerable(pose, spec.question.needs) };
}

export interface SearchOutcome {
  reason: 'stop' | 'steps' | 'cap';
  score: number;
  reward: number;
  training_reward: number;
  answer: string | null;
  /** What the exact checker read in the answer (a choice, yes/no, a number, a colour family, the accepted phrase), or null. */
  answer_read: string | null;
  correct: boolean;
  /**
   * Which scorer the question's accuracy comes from: `exact` for a closed answer type (this score is
   * final), `judge` for an open one (this score is the exact checker's provisional reading; the
   * judge's mark scores it in Results and in the paper's metric).
   */
  scored_by: 'exact' | 'judge';
  success: boolean;
  steps: number;
  path_length: number;
  collisions: number;
  collision: 0 | 1;
  final_distance: number;
  calls_used: number;
}

export function searchOutcome(spec: SearchTaskSpec, vis: Answerability, rules: SearchRules): SearchOutcome {
  const answer = rules.answer();
  const reading = answer === null ? null : readAnswer(spec.question.answer, answer);
  const correct = reading?.correct ?? false;
  const final = hiddenAt(spec, vis, rules.currentPose());
  const score = correct ? 100 : 0;
  return {
    reason: rules.endReason === 'submit' ? 'stop' : rules.endReason === 'cap' ? 'cap' : 'steps',
    score,
    reward: score / 100,
    training_reward: Math.min(1, Math.max(0, (score + 50) / 150)),
    answer,
    answer_read: reading?.read ?? null,
    correct,
    scored_by: spec.question.answer.type === 'text' ? 'judge' : 'exact',
    success: answer !== null && final.answerable,
    steps: rules.stepCount,
    path_length: r6(rules.pathLength()),
    collisions: rules.collisions(),
    collision: rules.collisions() > 0 ? 1 : 0,
    final_distance: final.distance,
    calls_used: rules.stepCount,
  };
}
