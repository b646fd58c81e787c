// The trials of one relation log and the lab's score of a run (docs/RELATION.md): each answer
// taken from the logged `answer` calls in order and scored against the task's hidden parameters
// files, so a run's accuracy never depends on what its end record claims. Used by the study's
// tables (./study/trials.ts), Results (MainKindModule.runScore) and a model import (importRun).
// Inputs: a trajectory and its relation task. Outputs: RelationTrialRow records, their CSV, accuracy in %.
// Invariant: a trial never answered counts as wrong; a block's trials are matched in the order
// its log's step 0 recorded; answers are read with the episode's own robust reader.
import { recordsCsv } from '../../../shared/analysis/csv';
import type { RelationTrialRow } from '../../../shared/kinds/relation/api';
import { readAnswer, type RecordedAnswer } from '../../../shared/kinds/relation/kind';
import type { Trajectory } from '../../env/trajectory';
import { readSpecHead } from '../../tasks/load';
import { loadRelationTask, type RelationTask } from './load';
import { orderedTask } from './env';

/**
 * The lab's accuracy of a relation run in per cent, as the episode grades it: correct answers
 * over the scored trials (attention checks left out unless the block has nothing else).
 */
export function relationAccuracy(rows: readonly RelationTrialRow[]): number | null {
  const scored = rows.some((r) => !r.catch) ? rows.filter((r) => !r.catch) : rows;
  return scored.length ? (100 * scored.filter((r) => r.correct).length) / scored.length : null;
}

/** Trials of one relation log: the answers of its accepted `answer` calls, in order. */
export function trialsOfTrajectory(traj: Trajectory, base: RelationTask, who: 'human' | 'model', answerer: string): RelationTrialRow[] {
  const n = base.spec.trials.length;
  const logged = (traj.steps.find((s) => s.step === 0)?.args as { order?: unknown } | undefined)?.order;
  const order = Array.isArray(logged) && logged.length === n && new Set(logged).size === n && logged.every((i) => Number.isInteger(i) && i >= 0 && i < n)
    ? (logged as number[]) : base.spec.trials.map((_, i) => i);
  const task = orderedTask(base, order);
  const answers: { a: RecordedAnswer; rt: number | null; server: number | null }[] = [];
  let gaveUp = false;
  // A call without the screen's reaction time (a model's) takes its latency: from the previous
  // call's finish (its observation) to this call's arrival, not the lab's time inside the call.
  let shownAt: number | null = null;
  for (const s of traj.steps) {
    const arrived = Date.parse(s.t);
    const latency = shownAt !== null && Number.isFinite(arrived) ? Math.max(0, arrived - shownAt) : s.ms;
    shownAt = Number.isFinite(arrived) ? arrived + s.ms : null;
    if (s.step === 0 || s.tool !== 'answer' || s.ok === false || gaveUp) continue;
    const r = readAnswer(s.args);
    if (!r.ok) continue;
    if (r.answer.give_up) {
      gaveUp = true;
      continue;
    }
    const server = (s as { server_ms?: unknown }).server_ms;
    answers.push({ a: r.answer, rt: r.answer.rt_ms ?? latency, server: typeof server === 'number' ? server : null });
  }
  return task.spec.trials.map((t, i) => {
    const truth = t.catch ?? task.params[i].relation.label;
    const got = answers[i];
    const answer = got?.a.relation ?? null;
    return {
      who, answerer, taskId: task.spec.task_id, trial: i + 1, environment: t.environment, triple: t.triple, task: t.perspective,
      truth, answer, correct: answer === truth, rtMs: got && !got.a.timed_out ? got.rt : null, confidence: got?.a.confidence ?? null,
      ...(t.catch ? { catch: true } : {}), ...(got?.a.timed_out ? { timedOut: true } : {}),
      ...(got?.a.unparsed !== undefined ? { unparsed: got.a.unparsed } : {}), ...(got ? { serverMs: got.server } : {}),
    };
  });
}

/**
 * Checks an imported model run of a relation task (an agent's log of this task with an end
 * record) and gives the lab's accuracy from its answers; one line when it does not fit.
 */
export function verifyRelationImport(traj: Trajectory, tasksDir: string, taskId: string): Promise<{ score: number }> {
  if (traj.header?.protocol !== 'agent') return Promise.reject(new Error(`this is a person's log (protocol '${traj.header?.protocol ?? 'none'}'); only model trajectories (protocol 'agent') can be imported`));
  if (!traj.end) return Promise.reject(new Error('the relation log has no end record (the block never ended)'));
  const task = loadRelationTask(tasksDir, readSpecHead(tasksDir, taskId));
  const score = relationAccuracy(trialsOfTrajectory(traj, task, 'model', traj.header.player));
  return score === null ? Promise.reject(new Error(`task '${taskId}' has no trials`)) : Promise.resolve({ score });
}

const HEADER = ['who', 'answerer', 'taskId', 'trial', 'environment', 'triple', 'task', 'truth', 'answer', 'correct', 'rtMs', 'confidence', 'serverMs', 'catch', 'timedOut', 'unparsed'] as const;

/** The trials as CSV through the lab's one writer (formula guard included: answers are the participant's text). */
export function relationCsv(rows: readonly RelationTrialRow[]): string {
  return recordsCsv(HEADER, rows);
}
