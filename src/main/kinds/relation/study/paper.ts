// The relation kind's part of a study (src/main/study/kind-part.ts): its tables of the paper
// (src/shared/kinds/relation/paper-tables.ts) from every scored trial of the study, participants'
// and each model run's, with the trial rows they are computed from (paper/data/relation-trials.csv).
// Input: a study and the tasks folder. Output: KindPaper. Invariants: practice, excluded episodes
// and those of a withdrawn participant are left out; a model's runs are its clusters.
import { existsSync } from 'node:fs';
import { toCsv } from '../../../../shared/analysis/csv';
import { relationKind } from '../../../../shared/kinds/relation/kind';
import { relationPaperTables, type PaperTrial } from '../../../../shared/kinds/relation/paper-tables';
import { RELATION_TASK_PREFIX } from '../../../../shared/kinds/relation/task';
import type { RelationTrialRow } from '../../../../shared/kinds/relation/api';
import type { KindStudyPart } from '../../../study/kind-part';
import { exclusionOf } from '../../../study/results';
import type { StudyStore } from '../../../study/store';
import { readSpecHead } from '../../../tasks/load';
import { loadRelationTask, type RelationTask } from '../load';
import { trialsOfLog } from './trials';

const PEOPLE = 'People';

function paperTrials(store: StudyStore, studyId: string, tasksDir: string): PaperTrial[] {
  const tasks = new Map<string, RelationTask | null>();
  const taskOf = (id: string): RelationTask | null => {
    if (!tasks.has(id)) {
      let t: RelationTask | null = null;
      try {
        t = id.startsWith(RELATION_TASK_PREFIX) ? loadRelationTask(tasksDir, readSpecHead(tasksDir, id)) : null;
      } catch {
        t = null;
      }
      tasks.set(id, t);
    }
    return tasks.get(id) ?? null;
  };
  const of = (r: RelationTrialRow, player: string, cluster: string): PaperTrial => ({
    player, who: r.who, cluster, environment: r.environment, task: r.task, truth: r.truth, answer: r.answer,
    rtMs: r.rtMs, catch: r.catch === true, timedOut: r.timedOut === true,
  });
  const out: PaperTrial[] = [];
  for (const p of store.participants(studyId)) {
    for (const ep of p.episodes) {
      const task = ep.practice || exclusionOf(p, ep) ? null : taskOf(ep.taskId);
      const path = store.resolveIn(studyId, ep.log);
      if (task && existsSync(path)) out.push(...trialsOfLog(path, task, 'human', p.id).map((r) => of(r, PEOPLE, p.id)));
    }
  }
  for (const m of store.modelLogs(studyId)) {
    const task = taskOf(m.taskId);
    if (task) out.push(...trialsOfLog(store.resolveIn(studyId, m.rel), task, 'model', m.model).map((r) => of(r, m.model, `${m.model}#r${m.run}`)));
  }
  return out;
}

export function relationTrialsCsv(rows: readonly PaperTrial[]): string {
  return toCsv<PaperTrial>([
    { name: 'player', value: (r) => r.player },
    { name: 'who', value: (r) => r.who },
    { name: 'cluster', value: (r) => r.cluster },
    { name: 'environment', value: (r) => r.environment },
    { name: 'task', value: (r) => r.task },
    { name: 'truth', value: (r) => r.truth },
    { name: 'answer', value: (r) => r.answer },
    { name: 'rt_ms', value: (r) => r.rtMs },
    { name: 'catch', value: (r) => r.catch },
    { name: 'timed_out', value: (r) => r.timedOut },
  ], rows);
}

export const relationStudyPart: KindStudyPart = {
  family: relationKind.family,
  // The relation trials travel in the kind's own panel and CSV (relation.exportCsv); the archive adds the paper's.
  exportTables: () => ({ tables: [], files: [] }),
  paper: (store, studyId, tasksDir) => {
    const rows = paperTrials(store, studyId, tasksDir);
    return { tables: relationPaperTables(rows), data: rows.length ? [{ file: 'relation-trials.csv', csv: relationTrialsCsv(rows) }] : [] };
  },
};
