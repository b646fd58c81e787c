// The relation trials of a study, read back from its trajectory logs: participants' scored
// episodes (practice left out) and imported model runs. Each answer is taken from the logged
// `answer` calls in order and scored against the task's hidden parameters files, so the numbers
// never depend on what a log's end record claims. Inputs: a StudyStore, a study id, the tasks
// folder. Outputs: RelationTrialRow records and their CSV.
// Invariant: an episode of another kind is skipped; a trial never answered counts as wrong.
import { existsSync } from 'node:fs';
import type { RelationTrialRow } from '../../../../shared/kinds/relation/api';
import { AnswerArgsSchema } from '../../../../shared/kinds/relation/kind';
import { RELATION_TASK_PREFIX } from '../../../../shared/kinds/relation/task';
import { readTrajectory } from '../../../env/trajectory';
import { readSpecHead } from '../../../tasks/load';
import { loadRelationTask, type RelationTask } from '../kind';
import type { StudyStore } from '../../../studies/store';

/** Trials of one relation log: the answers of its accepted `answer` calls, in order. */
export function trialsOfLog(path: string, task: RelationTask, who: 'human' | 'model', answerer: string): RelationTrialRow[] {
  const traj = readTrajectory(path);
  const answers: { relation: RelationTrialRow['answer']; rt: number | null; confidence: number | null }[] = [];
  let gaveUp = false;
  for (const s of traj.steps) {
    if (s.step === 0 || s.tool !== 'answer' || s.ok === false || gaveUp) continue;
    const a = AnswerArgsSchema.safeParse(s.args);
    if (!a.success) continue;
    if (a.data.give_up) {
      gaveUp = true;
      continue;
    }
    answers.push({ relation: a.data.relation ?? null, rt: a.data.rt_ms ?? s.ms, confidence: a.data.confidence ?? null });
  }
  return task.spec.trials.map((t, i) => {
    const truth = task.params[i].relation.label;
    const a = answers[i];
    return {
      who, answerer, taskId: task.spec.task_id, trial: i + 1, environment: t.environment, triple: t.triple, task: t.perspective,
      truth, answer: a?.relation ?? null, correct: a?.relation === truth, rtMs: a?.rt ?? null, confidence: a?.confidence ?? null,
    };
  });
}

export function studyRelationTrials(store: StudyStore, studyId: string, tasksDir: string): RelationTrialRow[] {
  const tasks = new Map<string, RelationTask | null>();
  const taskOf = (id: string): RelationTask | null => {
    if (!tasks.has(id)) {
      let t: RelationTask | null = null;
      if (id.startsWith(RELATION_TASK_PREFIX)) {
        try {
          t = loadRelationTask(tasksDir, readSpecHead(tasksDir, id));
        } catch {
          t = null;
        }
      }
      tasks.set(id, t);
    }
    return tasks.get(id) ?? null;
  };
  const rows: RelationTrialRow[] = [];
  for (const p of store.participants(studyId)) {
    for (const ep of p.episodes) {
      const task = ep.practice ? null : taskOf(ep.taskId);
      const path = store.resolveIn(studyId, ep.log);
      if (task && existsSync(path)) rows.push(...trialsOfLog(path, task, 'human', p.id));
    }
  }
  for (const m of store.modelLogs(studyId)) {
    const task = taskOf(m.taskId);
    if (task) rows.push(...trialsOfLog(store.resolveIn(studyId, m.rel), task, 'model', m.model));
  }
  return rows;
}

const HEADER = ['who', 'answerer', 'taskId', 'trial', 'environment', 'triple', 'task', 'truth', 'answer', 'correct', 'rtMs', 'confidence'] as const;

export function relationCsv(rows: readonly RelationTrialRow[]): string {
  const field = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return `${[HEADER.join(','), ...rows.map((r) => HEADER.map((h) => field(r[h])).join(','))].join('\n')}\n`;
}
