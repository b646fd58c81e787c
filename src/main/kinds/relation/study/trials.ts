// The relation trials of a study, read back from its trajectory logs: participants' scored
// episodes (practice left out) and imported model runs. Each answer is taken from the logged
// `answer` calls in order and scored against the task's hidden parameters files, so the numbers
// never depend on what a log's end record claims. Inputs: a StudyStore, a study id, the tasks
// folder. Outputs: RelationTrialRow records (their CSV: ../log-trials.ts relationCsv).
// Invariant: an episode of another kind is skipped; a trial never answered counts as wrong; a
// block's trials are matched in the order its log's step 0 recorded; answers are read with the
// episode's own robust reader (unparseable ones kept and flagged).
import { existsSync } from 'node:fs';
import type { RelationTrialRow } from '../../../../shared/kinds/relation/api';
import { RELATION_TASK_PREFIX } from '../../../../shared/kinds/relation/task';
import { readTrajectory } from '../../../env/trajectory';
import { readSpecHead } from '../../../tasks/load';
import { loadRelationTask, type RelationTask } from '../load';
import { trialsOfTrajectory } from '../log-trials';
import type { StudyStore } from '../../../study/store';

/** Trials of one relation log: the answers of its accepted `answer` calls, in order. */
export function trialsOfLog(path: string, base: RelationTask, who: 'human' | 'model', answerer: string): RelationTrialRow[] {
  return trialsOfTrajectory(readTrajectory(path), base, who, answerer);
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
