// Resuming an episode from its trajectory: the log (read once, by the caller) is replayed
// strictly through a fresh pure Episode (src/shared/kinds/replay.ts), which rebuilds the scene, the
// id counter and both budgets exactly.
// Inputs: the Episode built from the task, the parsed log and its path. Output: how far it got.
// Invariant: a replay that disagrees with the log is refused with ResumeError (never continued
// from a wrong state).
import type { Episode } from '../../../shared/kinds/splatbench/episode';
import { withFooter } from '../../../shared/kinds/splatbench/format';
import { ReplayError, replayAll, type ReplayedStep } from '../../../shared/kinds/replay';
import type { LoadedTask } from '../../tasks/load';
import type { Trajectory, TrajectoryHeader } from '../../env/trajectory';

export { ReplayError as ResumeError } from '../../../shared/kinds/replay';

export interface Resumed {
  steps: number; // charged calls replayed
  validBytes: number;
  header: TrajectoryHeader | null;
  ended: boolean; // the log already holds its end record
  truncated: boolean;
  replayed: ReplayedStep[];
}

export function replayInto(episode: Episode, task: LoadedTask, log: Trajectory, path: string): Resumed {
  if (!log.header) throw new ReplayError(`cannot resume from ${path}: no header line`);
  if (log.header.task !== task.spec.task_id) throw new ReplayError(`cannot resume: ${path} is a log of task '${log.header.task}', not '${task.spec.task_id}'`);
  if (log.badLines.length) throw new ReplayError(`cannot resume from ${path}: unreadable line(s) ${log.badLines.join(', ')}`);
  const replayed = replayAll(episode, log.steps, { strict: true, source: path });
  return { steps: episode.stepCount, validBytes: log.validBytes, header: log.header, ended: log.end !== null, truncated: log.truncated, replayed };
}

/** First text after a resume: where the episode stands. */
export function resumeNote(episode: Episode, steps: number): string {
  const head = episode.firstObservation().split('\n')[0];
  const state = episode.done ? 'The episode is over.' : `Resumed after ${steps} call${steps === 1 ? '' : 's'}; the scene has ${episode.records().length} Gaussians.`;
  return withFooter(`${head}\n${state}`, episode.budgets());
}
