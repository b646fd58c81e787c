// The `relation` kind's main half (docs/DESIGN.md section 13, docs/RELATION.md): a task is its
// spec plus each trial's hidden parameters file (tasks/relation/*.json); a trial's image is
// rendered from that file when first shown (deterministic, never stored) and kept for the task;
// an imported image (`stimulus` in the file) is read from beside it instead.
// Inputs: a tasks folder and a spec head. Outputs: RelationTask (./load.ts), TaskSummary, RelationEnv.
// Invariant: summaries carry no label and no position; a task of another kind is refused.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RelationRules, CALLS_PER_TRIAL } from '../../../shared/kinds/relation/kind';
import { RelationParamsSchema } from '../../../shared/kinds/relation/params';
import type { TaskSummary } from '../../../shared/task/schema';
import { readSpecHead } from '../../tasks/load';
import type { MainKindModule } from '../kind';
import { RelationEnv } from './env';
import { asRelationTask, loadRelationTask, readRelationSpec } from './load';
import { relationAccuracy, trialsOfTrajectory, verifyRelationImport } from './log-trials';
import { relationReport } from './report';
import { taskFile } from '../../tasks/paths';

// The tests and the kind's own tools load a task from here as from its module.
export { loadRelationTask, type RelationTask } from './load';

export const relationMain: MainKindModule = {
  family: 'relation',
  load: (tasksDir, head) => Promise.resolve(loadRelationTask(tasksDir, head)),
  summary: (tasksDir, head): TaskSummary => {
    const spec = readRelationSpec(tasksDir, head);
    return {
      id: spec.task_id, kind: 'relation', object: spec.practice ? 'practice' : spec.trials[0].environment,
      budgets: { maxToolCalls: CALLS_PER_TRIAL * spec.trials.length },
    };
  },
  // An imported image travels with its parameters file (the file names it; a missing one is the load's error).
  dataFiles: (tasksDir, head) => readRelationSpec(tasksDir, head).trials.flatMap((t) => {
    const path = taskFile(tasksDir, t.params);
    const p = existsSync(path) ? RelationParamsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8'))) : null;
    return p?.success && p.data.stimulus ? [path, join(dirname(path), p.data.stimulus.file)] : [path];
  }),
  reset: (task, options) => RelationEnv.reset(asRelationTask(task), options),
  rules: (task) => new RelationRules(asRelationTask(task).spec),
  // A run is scored from its logged answers against the hidden labels, never its end record.
  importRun: (traj, tasksDir, taskId) => verifyRelationImport(traj, tasksDir, taskId),
  runScore: (traj, tasksDir, taskId) => {
    if (!traj.end) return null;
    try {
      return relationAccuracy(trialsOfTrajectory(traj, loadRelationTask(tasksDir, readSpecHead(tasksDir, taskId)), 'model', traj.header?.player ?? 'model'));
    } catch {
      return null;
    }
  },
  report: (logs, tasksDir) => Promise.resolve(relationReport(logs, tasksDir)),
};
