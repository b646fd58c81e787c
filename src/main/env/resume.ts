// Resuming an episode from its trajectory: the logged calls are replayed through a fresh pure
// Episode (deterministic), which rebuilds the scene, the id counter and both budgets exactly.
// Inputs: the Episode built from the task, the log path. Output: how far the log got.
// Invariant: a replay that disagrees with the log (a footer or a scene snapshot) is refused
// with ResumeError rather than continued from a wrong state.
import type { Episode } from '../../shared/env/episode';
import { withFooter } from '../../shared/env/format';
import { toCompactRecord } from '../../shared/env/scene';
import type { LoadedTask } from '../tasks/load';
import { readTrajectory, type TrajectoryHeader } from './trajectory';

export class ResumeError extends Error {
  override name = 'ResumeError';
}

export interface Resumed {
  steps: number; // charged calls replayed
  validBytes: number;
  header: TrajectoryHeader | null;
  ended: boolean; // the log already holds its end record
  truncated: boolean;
}

function lastLine(text: string): string {
  const i = text.lastIndexOf('\n');
  return i >= 0 ? text.slice(i + 1) : text;
}

export function replayInto(episode: Episode, task: LoadedTask, path: string): Resumed {
  const log = readTrajectory(path);
  if (!log.header) throw new ResumeError(`cannot resume from ${path}: no header line`);
  if (log.header.task !== task.spec.task_id) throw new ResumeError(`cannot resume: ${path} is a log of task '${log.header.task}', not '${task.spec.task_id}'`);
  if (log.badLines.length) throw new ResumeError(`cannot resume from ${path}: unreadable line(s) ${log.badLines.join(', ')}`);
  let steps = 0;
  for (const rec of log.steps) {
    if (rec.step === 0) continue;
    if (rec.step !== steps + 1) throw new ResumeError(`cannot resume from ${path}: step ${rec.step} follows step ${steps}`);
    const result = episode.step({ tool: rec.tool, args: rec.args });
    if (!result.charged) throw new ResumeError(`cannot resume from ${path}: step ${rec.step} comes after the end of the episode`);
    steps += 1;
    if (lastLine(rec.text) !== result.footer) {
      throw new ResumeError(`cannot resume from ${path}: step ${rec.step} logged '${lastLine(rec.text)}' but replays to '${result.footer}'`);
    }
    if (rec.state) {
      const now = JSON.stringify(episode.records().map(toCompactRecord));
      if (now !== JSON.stringify(rec.state)) throw new ResumeError(`cannot resume from ${path}: the scene after step ${rec.step} does not replay to its snapshot`);
    }
  }
  return { steps, validBytes: log.validBytes, header: log.header, ended: log.end !== null, truncated: log.truncated };
}

/** First text after a resume: where the episode stands. */
export function resumeNote(episode: Episode, steps: number): string {
  const head = episode.firstObservation().split('\n')[0];
  const state = episode.done ? 'The episode is over.' : `Resumed after ${steps} call${steps === 1 ? '' : 's'}; the scene has ${episode.records().length} Gaussians.`;
  return withFooter(`${head}\n${state}`, episode.budgets());
}
