// Verified model imports (issue 11 item 6): an imported trajectory is trusted for nothing it
// states about itself. It must be a model's log (protocol `agent`) of a study task, under that
// task's budgets, with a model name no person could have; its calls are replayed strictly (the
// one replay, src/shared/kinds/replay.ts) and the final scene is graded again by the lab, and that
// score is the one the study uses. A score the file claims is kept only to show a mismatch.
// Inputs: the parsed trajectory, the task, the study's participants, a grader. Output: the
// verdict stored beside the log. Invariant: a log that does not replay is refused, never stored.
import { z } from 'zod';
import { replaySteps } from '../../shared/kinds/replay';
import { packRecords } from '../../shared/scene/records';
import type { Trajectory } from '../env/trajectory';
import type { EnvGrader } from '../env/types';
import { asSplatTask, loadAnyTask, mainKind, rulesFor } from '../kinds/registry';
import type { LoadedTask } from '../tasks/load';
import { readTrajectory } from '../env/trajectory';
import type { StudyStore } from './store';

export const ModelVerdictSchema = z.strictObject({
  /** The lab's held-out grade of the replayed final scene. */
  score: z.number(),
  reward: z.number(),
  psnr: z.number(),
  ssim: z.number(),
  iou: z.number(),
  lpips: z.number().nullable(),
  /** What the file's end record claimed (null: it had none). */
  fileScore: z.number().nullable(),
  /** The claim differs from the lab's grade by more than 1e-6. */
  mismatch: z.boolean(),
  calls: z.number().int(),
  complete: z.boolean(),
  /** The lab's grade after each scene-changing call of the replay (the per-call scores every view shows; older verdicts lack it). */
  curve: z.array(z.strictObject({ step: z.number().int().nonnegative(), score: z.number() })).optional(),
  graded: z.string().describe('ISO time of the regrade'),
});
export type ModelVerdict = z.infer<typeof ModelVerdictSchema>;

/** Names that would pass a model off as a person: "human", and participant ids. */
export function modelNameProblem(name: string, participantIds: readonly string[]): string | null {
  const n = name.trim();
  if (/^humans?$/i.test(n) || /^participants?$/i.test(n)) return `'${n}' cannot be a model name (it names people); give the model's own name`;
  if (participantIds.some((p) => p.toLowerCase() === n.toLowerCase()) || /^P\d+$/i.test(n)) return `'${n}' is a participant id, not a model name`;
  return null;
}

/** Everything wrong with a trajectory as a model's run of `task`, or null. */
export function importProblem(traj: Trajectory, task: LoadedTask): string | null {
  const h = traj.header;
  if (!h) return 'the file has no trajectory header line ({"type":"header", "task": ...})';
  if (h.protocol !== 'agent') return `this is a person's log (protocol '${h.protocol}'); only model trajectories (protocol 'agent') can be imported`;
  const s = task.spec;
  if (!h.budgets) return `the log does not state its budgets; a run of ${s.task_id} must use ${s.max_gaussians} Gaussians, ${s.max_tool_calls} calls, ${s.max_renders} renders`;
  const b = h.budgets;
  if (b.max_gaussians !== s.max_gaussians || b.max_tool_calls !== s.max_tool_calls || b.max_renders !== s.max_renders) {
    return `the log's budgets (${b.max_gaussians} Gaussians, ${b.max_tool_calls} calls, ${b.max_renders} renders) are not the task's (${s.max_gaussians}, ${s.max_tool_calls}, ${s.max_renders})`;
  }
  return null;
}

/** Replays the log strictly and grades its final scene with the lab's grader. */
export async function verifyModelLog(traj: Trajectory, task: LoadedTask, grader: EnvGrader): Promise<ModelVerdict> {
  const rules = rulesFor(task);
  // Every scene-changing call is graded again, so the per-call scores are the lab's too.
  const curve: { step: number; score: number }[] = [];
  for (const { record, result } of replaySteps(rules, traj.steps, { strict: true, source: 'the imported log' })) {
    if (result.changed) curve.push({ step: record.step, score: (await grader.grade(task, packRecords(rules.records?.() ?? []))).score });
  }
  const g = await grader.grade(task, packRecords(rules.records?.() ?? []));
  const fileScore = traj.end?.score ?? null;
  return {
    score: g.score,
    reward: g.reward,
    psnr: g.psnr,
    ssim: g.ssim,
    iou: g.iou,
    lpips: g.lpips,
    fileScore,
    mismatch: fileScore !== null && Math.abs(fileScore - g.score) > 1e-6,
    calls: rules.stepCount,
    complete: traj.end !== null,
    curve,
    graded: new Date().toISOString(),
  };
}

/**
 * Grades the model runs of a study that have no verdict yet (runs `splatlab eval --study` wrote
 * into models/): the same strict replay and regrade as an import, so Results scores them at once.
 * Runs of kinds scored from their logs (relation, search) and runs that do not end are left
 * alone; a run that does not replay is reported, never given a verdict. Returns what it did.
 */
export async function gradeStudyRuns(store: StudyStore, studyId: string, tasksDir: string, grader: EnvGrader): Promise<{ graded: number; problems: string[] }> {
  const problems: string[] = [];
  let graded = 0;
  for (const run of store.modelLogs(studyId)) {
    if (run.verdict) continue;
    const task = await loadAnyTask(run.taskId, { tasksDir }).catch(() => null);
    if (!task || !mainKind(task).sceneGraded) continue;
    const traj = readTrajectory(store.resolveIn(studyId, run.rel));
    if (!traj.end) continue;
    try {
      store.saveVerdict(studyId, run.rel, await verifyModelLog(traj, asSplatTask(task), grader));
      graded++;
    } catch (e) {
      problems.push(`${run.rel}: ${(e as Error).message}`);
    }
  }
  return { graded, problems };
}
