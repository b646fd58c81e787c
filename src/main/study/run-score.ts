// The one score of a run (issue 24 item 3; docs/STUDIES.md "One score per run"): every view of a
// study (Results rows and summaries, the analyses and their charts, Replay, the CSVs and the
// archive) takes a run's final score and its per-call scores from here. A person's log was
// written by the lab, so its end record and hidden records are the lab's own grades. An imported
// model's file is trusted for nothing it says about itself: its final score is the lab's regrade
// of the replayed scene (the verdict), its per-call scores are the regrades of each scene-changing
// call (the verdict's curve; none when an older verdict has no curve), and a run of a kind graded
// from its calls (search) has its kind's own regrade. The file's own claim is returned apart, as `claimed`,
// so a view can only show it labelled as the file's claim.
// Inputs: the trajectory, and for an imported model run its verdict (null: not graded yet) and,
// for a kind graded from its calls, that kind's regrade. Output: RunScore. Invariant: `score` and `steps` never come
// from a model file's end or hidden records.
import type { Trajectory } from '../env/trajectory';
import type { ModelVerdict } from './verify';

export interface RunScore {
  /** The final score every view shows (null: not graded, unfinished). */
  score: number | null;
  /** What the file claimed as its final score when it differs from `score` (models only), else null. */
  claimed: number | null;
  /** Per logged call (by index into traj.steps): the score after it, carried forward; null when ungraded. */
  steps: (number | null)[];
  /** Where `score` comes from. */
  source: 'lab log' | 'lab regrade' | 'answer check' | 'none';
}

/** `regrade`: the run's score as its kind computes it from the calls (MainKindModule.runScore: a search run's answer checked against the task), for kinds with no scene verdict. */
export type RunOf = { kind: 'human' } | { kind: 'model'; verdict: ModelVerdict | null; regrade?: number | null };

function carried(traj: Trajectory, at: (step: number, logged: number | undefined) => number | undefined): (number | null)[] {
  let score: number | null = null;
  return traj.steps.map((s) => {
    const v = at(s.step, s.hidden?.score);
    if (v !== undefined) score = v;
    return score;
  });
}

export function runScore(traj: Trajectory, run: RunOf): RunScore {
  if (run.kind === 'human') return { score: traj.end?.score ?? null, claimed: null, steps: carried(traj, (_s, logged) => logged), source: traj.end ? 'lab log' : 'none' };
  const fileScore = traj.end?.score ?? null;
  if (run.regrade !== undefined && run.regrade !== null && traj.end) {
    const score = run.regrade;
    return { score, claimed: fileScore !== null && Math.abs(fileScore - score) > 1e-6 ? fileScore : null, steps: traj.steps.map((s, i) => (i === traj.steps.length - 1 ? score : null)), source: 'answer check' };
  }
  const v = run.verdict;
  if (!v) return { score: null, claimed: null, steps: traj.steps.map(() => null), source: 'none' };
  const curve = new Map((v.curve ?? []).map((c) => [c.step, c.score]));
  const last = traj.steps.at(-1)?.step;
  // Without a per-call regrade only the final call carries the lab's grade.
  const steps = carried(traj, (step) => curve.get(step) ?? (step === last ? v.score : undefined));
  return { score: v.score, claimed: v.mismatch ? v.fileScore : null, steps, source: 'lab regrade' };
}
