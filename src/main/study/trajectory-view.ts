// The Replay view of one logged run (docs/STUDIES.md "One score per run"; issue 23, one model per
// concept): what study.trajectory and freeplay.trajectory both return. Inputs: the trajectory,
// its task, the log name the client asked for, the file's path (for its process log beside it)
// and whose run it is (RunOf: a person's log, or an imported model's with the lab's verdict).
// Output: TrajectoryView (src/shared/api/study.ts). Invariant: every score in the view is the
// run's one score (run-score.ts); a model file's own claim appears only as `claimedScore`.
import { existsSync, readFileSync } from 'node:fs';
import type { TrajectoryView } from '../../shared/api/study';
import { parseProcessLog, processLogPath, type ProcessEvent } from '../../shared/env/process-log';
import type { Trajectory } from '../env/trajectory';
import type { KindTask } from '../kinds/kind';
import { mainKind } from '../kinds/registry';
import { trajectorySteps } from './results';
import { runScore, type RunOf } from './run-score';

/** The process log beside a trajectory file, when there is one (spread into the view). */
export function processOf(path: string): { process?: ProcessEvent[] } {
  const file = processLogPath(path);
  return existsSync(file) ? { process: parseProcessLog(readFileSync(file, 'utf8')) } : {};
}

export interface TrajectoryViewSource {
  /** The log name as the client named it (echoed back). */
  log: string;
  /** The trajectory file on disk (its process log lies beside it). */
  path: string;
  run: RunOf;
}

export function trajectoryView(traj: Trajectory, task: KindTask, src: TrajectoryViewSource): TrajectoryView {
  const rs = runScore(traj, src.run);
  const e = traj.end;
  // An imported model's reward is the lab's regrade too, when it has been graded.
  const verdict = src.run.kind === 'model' ? src.run.verdict : null;
  return {
    log: src.log,
    taskId: traj.header?.task ?? '',
    player: traj.header?.player ?? 'unknown',
    protocol: traj.header?.protocol ?? 'unknown',
    started: traj.header?.started ?? '',
    heldoutViews: mainKind(task).replayViews?.(task) ?? [],
    steps: trajectorySteps(traj, task).map((s, i) => ({ ...s, score: rs.steps[i] ?? null })),
    end: e && rs.score !== null ? { reason: e.reason, score: rs.score, reward: verdict ? verdict.reward : e.reward, lpipsMissing: e.lpips_missing ?? false, t: e.t } : null,
    truncated: traj.truncated,
    claimedScore: rs.claimed,
    ...processOf(src.path),
  };
}
