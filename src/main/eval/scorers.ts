// Pluggable scorers of finished episodes (docs/AGENTS.md "Inspect export"): each names the kinds
// it scores and turns a trajectory into one score with the lab's own grading (docs/DESIGN.md
// section 11: the score of a run is the lab's (re)grade; a file's claim is only labelled as one).
// `splatlab export inspect --scorer NAME` picks them; the default is every scorer for the kind.
// Inputs: a parsed trajectory, its loaded task, the lab's grader (made on first use).
// Output: {value, answer, explanation, metadata} in Inspect's Score shape (without history).
// Invariant: a scorer never edits the log; a log it cannot replay is an error naming the step.
import { regradeSearch } from '../kinds/search/regrade';
import type { SearchTask } from '../kinds/search/env';
import { trialsOfLog } from '../kinds/relation/study/trials';
import { verifyModelLog } from '../studies/verify';
import type { Trajectory } from '../env/trajectory';
import type { EnvGrader } from '../env/types';
import type { KindTask } from '../kinds/kind';
import type { RelationTask } from '../kinds/relation/kind';
import { asSplatTask } from '../kinds/splatbench/kind';

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

export interface Scorer {
  readonly name: string;
  readonly description: string;
  /** The task kinds it scores (empty: every kind). */
  readonly kinds: readonly string[];
  score(input: ScoreInput): Promise<EpisodeScore>;
}

const splatscore: Scorer = {
  name: 'splatscore',
  description: "SplatScore (0-100) of the final scene: the log replayed strictly and graded by the lab's hidden grader",
  kinds: ['sculpt', 'reassembly', 'oneshot'],
  async score({ traj, task, grader }) {
    const v = await verifyModelLog(traj, asSplatTask(task, 'splatscore'), await grader());
    return {
      value: v.score,
      answer: null,
      explanation: `SplatScore ${v.score.toFixed(2)} after ${v.calls} calls (PSNR ${v.psnr.toFixed(2)} dB, SSIM ${v.ssim.toFixed(3)}, IoU ${v.iou.toFixed(3)}${v.lpips === null ? ', LPIPS missing' : `, LPIPS ${v.lpips.toFixed(3)}`})`,
      metadata: { reward: v.reward, psnr: v.psnr, ssim: v.ssim, iou: v.iou, lpips: v.lpips, file_score: v.fileScore, mismatch: v.mismatch },
    };
  },
};

const searchChecker: Scorer = {
  name: 'search_checker',
  description: "search: the answer checked against the task's answer (1 correct, 0 not), the calls replayed through the rules",
  kinds: ['search'],
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

const relationAccuracy: Scorer = {
  name: 'relation_accuracy',
  description: "relation: share of trials answered correctly against the hidden labels (unanswered trials count as wrong)",
  kinds: ['relation'],
  async score({ path, traj, task }) {
    const rows = trialsOfLog(path, task as RelationTask, 'model', traj.header?.player ?? 'unknown');
    const correct = rows.filter((r) => r.correct).length;
    return {
      value: rows.length ? correct / rows.length : 0,
      answer: rows.map((r) => r.answer ?? '-').join(','),
      explanation: `${correct} of ${rows.length} trials correct`,
      metadata: { trials: rows.map((r) => ({ trial: r.trial, truth: r.truth, answer: r.answer, correct: r.correct, rt_ms: r.rtMs })) },
    };
  },
};

const endRecord: Scorer = {
  name: 'end_record',
  description: "the score the log's end record claims (labelled as the file's claim, not regraded)",
  kinds: [],
  async score({ traj }) {
    const end = traj.end;
    if (!end) throw new Error('the log has no end record (the episode did not finish)');
    return { value: end.score, answer: null, explanation: `the file's claim: score ${end.score} (reason ${end.reason})`, metadata: { claim: true, reason: end.reason, ending: end.ending ?? null } };
  },
};

export const SCORERS: readonly Scorer[] = [splatscore, searchChecker, relationAccuracy, endRecord];

/** The scorers to run for a kind: the named ones (each must exist), else every one for that kind except the file's claim. */
export function scorersFor(kind: string, names?: readonly string[]): Scorer[] {
  if (names?.length) {
    const unknown = names.find((n) => !SCORERS.some((s) => s.name === n));
    if (unknown) throw new Error(`unknown scorer '${unknown}' (scorers: ${SCORERS.map((s) => s.name).join(', ')})`);
    return SCORERS.filter((s) => names.includes(s.name) && (s.kinds.length === 0 || s.kinds.includes(kind)));
  }
  return SCORERS.filter((s) => s.kinds.includes(kind));
}
