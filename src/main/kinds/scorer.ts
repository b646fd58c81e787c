// The Inspect scorer a kind supplies (docs/AGENTS.md "Inspect export"; docs/DESIGN.md section 11:
// the score of a run is the lab's (re)grade, a file's claim is only labelled as one). Each kind's
// scorer lives in its folder's study tier (src/main/kinds/<kind>/study/scorer.ts), since grading a
// replayed log uses the study machinery; src/main/eval/scorers.ts is written once over the list.
// Input: a parsed trajectory, its loaded task, the lab's grader (made on first use).
// Output: {value, answer, explanation, metadata} in Inspect's Score shape (without history).
// Invariant: a scorer never edits the log; a log it cannot replay is an error naming the step.
import type { Trajectory } from '../env/trajectory';
import type { EnvGrader } from '../env/types';
import type { KindTask } from './kind';

export interface EpisodeScore {
  value: number;
  answer: string | null;
  explanation: string;
  metadata: Record<string, unknown>;
}

export interface ScoreInput {
  path: string;
  traj: Trajectory;
  task: KindTask;
  grader: () => Promise<EnvGrader>;
}

export interface KindScorer {
  readonly name: string;
  readonly description: string;
  /** The kind family it scores (src/shared/kinds/registry.ts). */
  readonly family: string;
  score(input: ScoreInput): Promise<EpisodeScore>;
}
