// Writes the relation trials of the lab's task set: one scored task per environment x triple x
// task (`tasks/relation__<env>__<triple>__<ego|allo>.json`, 30 in all), one practice task with a
// block of trials, and each trial's hidden parameters file under `tasks/relation/`.
// Inputs: a tasks folder, a seed, the practice trial count. Output: the task ids written.
// Invariant: the same seed writes the same files; images are not stored (main renders them
// from the parameters file when a trial starts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleLayout } from '../../../shared/kinds/relation/layout';
import { planTrials, RELATION_TASK_PREFIX, RelationTaskSpecSchema, trialFor, type RelationTaskSpec } from '../../../shared/kinds/relation/task';
import { checkNoBuiltInFiles, checkNotBuiltIn } from '../../tasks/paths';

export const PRACTICE_TASK_ID = `${RELATION_TASK_PREFIX}practice`;

export function writeRelationTasks(tasksDir: string, opts: { seed?: number; practice?: number } = {}): string[] {
  const plans = planTrials(opts.seed ?? 16, opts.practice ?? 4);
  // The set's ids and files are the built-in set's: a lab home's layered folder refuses them before anything is written.
  checkNotBuiltIn(tasksDir, [PRACTICE_TASK_ID, ...plans.map((p) => `${RELATION_TASK_PREFIX}${p.id}`)]);
  checkNoBuiltInFiles(tasksDir, plans.map((p) => `relation/${RELATION_TASK_PREFIX}${p.practice ? 'practice__' : ''}${p.id}.json`));
  mkdirSync(join(tasksDir, 'relation'), { recursive: true });
  const ids: string[] = [];
  const practice: RelationTaskSpec['trials'] = [];
  for (const plan of plans) {
    const params = sampleLayout({ ...plan, id: plan.id });
    const file = `relation/${RELATION_TASK_PREFIX}${plan.practice ? 'practice__' : ''}${plan.id}.json`;
    writeFileSync(join(tasksDir, file), `${JSON.stringify(params, null, 1)}\n`);
    const trial = trialFor(params, file);
    if (plan.practice) {
      practice.push(trial);
      continue;
    }
    const spec = RelationTaskSpecSchema.parse({ task_id: `${RELATION_TASK_PREFIX}${plan.id}`, kind: 'relation', practice: false, trials: [trial] });
    writeFileSync(join(tasksDir, `${spec.task_id}.json`), `${JSON.stringify(spec, null, 2)}\n`);
    ids.push(spec.task_id);
  }
  if (practice.length > 0) {
    const spec = RelationTaskSpecSchema.parse({ task_id: PRACTICE_TASK_ID, kind: 'relation', practice: true, trials: practice });
    writeFileSync(join(tasksDir, `${spec.task_id}.json`), `${JSON.stringify(spec, null, 2)}\n`);
    ids.push(spec.task_id);
  }
  return ids;
}
