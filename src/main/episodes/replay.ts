// Regrading a played episode: the logged calls are replayed (src/shared/kinds/replay.ts) and each
// scene that was graded during play is graded again, so a log can be checked (and scored with a
// newer grader) without trusting its stored numbers.
// Inputs: the log path, the task, a grader. Output: {step, hidden} for every graded step, in order.
// Invariant: with the same grader the result equals the logged hidden metrics exactly.
import { replaySteps } from '../../shared/kinds/replay';
import { packRecords } from '../../shared/scene/records';
import type { LoadedTask } from '../tasks/load';
import { rulesFor } from '../kinds/registry';
import { hiddenOf } from '../env/tool-out';
import { readTrajectory, type HiddenMetrics } from '../env/trajectory';
import type { EnvGrader } from '../env/types';

export async function regradeTrajectory(path: string, task: LoadedTask, grader: EnvGrader): Promise<{ step: number; hidden: HiddenMetrics }[]> {
  const log = readTrajectory(path);
  const episode = rulesFor(task);
  const out: { step: number; hidden: HiddenMetrics }[] = [];
  const grade = async (step: number): Promise<void> => {
    out.push({ step, hidden: hiddenOf(await grader.grade(task, packRecords(episode.records?.() ?? []))) });
  };
  if (log.steps[0]?.step === 0 && log.steps[0].hidden) await grade(0);
  for (const { record } of replaySteps(episode, log.steps)) {
    if (record.hidden) await grade(record.step);
  }
  return out;
}
