// Checks a generated relation dataset as a whole: every label recomputed independently from its
// parameters file (src/shared/kinds/relation/verify.ts), no ambiguous sample, both tasks in every
// environment, classes as planned (balanced), splits disjoint and stratified by class, no
// empty split (a problem, or a warning when the config records `allowEmptySplits`), roles as
// the config says. Input: a dataset folder. Output: a summary, the problems found (empty: the
// dataset passes) and warnings.
import { datasetPlan, readManifest, storedSamples } from './files';
import { verifyParams } from '../../../shared/kinds/relation/verify';
import { emptySplits } from '../../../shared/kinds/relation/dataset';

export interface DatasetCheck {
  samples: number;
  missing: number;
  byEnvironmentTask: Record<string, number>;
  problems: string[];
  /** What the config allowed but a reader should know (empty splits recorded with the option). */
  warnings: string[];
  roles: 'sparrta' | 'swapped';
}

export function checkDataset(dir: string): DatasetCheck {
  const manifest = readManifest(dir);
  const stored = storedSamples(dir, manifest);
  const problems: string[] = [];
  const byEnvironmentTask: Record<string, number> = {};
  const strata = new Map<string, Record<string, number>>();
  const seen = new Map<string, string>();
  for (const { plan, params } of stored) {
    problems.push(...verifyParams(params));
    // The plan deals the classes evenly; a stored label off its planned class breaks the balance.
    if (params.relation.label !== plan.wanted) problems.push(`${plan.id}: label ${params.relation.label}, planned ${plan.wanted}`);
    if ((params.roles ?? 'sparrta') !== manifest.config.roles) problems.push(`${plan.id}: roles ${params.roles ?? 'sparrta'}, the dataset says ${manifest.config.roles}`);
    if (params.id !== plan.id) problems.push(`${plan.id}: parameters file names sample ${params.id}`);
    const prev = seen.get(params.id);
    if (prev && prev !== plan.split) problems.push(`${plan.id}: in two splits (${prev}, ${plan.split})`);
    seen.set(params.id, plan.split);
    const et = `${plan.environment}/${plan.task}`;
    byEnvironmentTask[et] = (byEnvironmentTask[et] ?? 0) + 1;
    const key = `${plan.environment}/${plan.triple}/${plan.task}/${params.relation.label}`;
    const c = strata.get(key) ?? { train: 0, val: 0, test: 0 };
    c[plan.split]++;
    strata.set(key, c);
  }
  for (const env of manifest.config.environments) {
    for (const task of ['ego', 'allo'] as const) {
      if (manifest.config.counts[task] > 0 && !byEnvironmentTask[`${env}/${task}`]) problems.push(`${env}: no ${task} samples`);
    }
  }
  const [fTrain, fVal] = manifest.config.splits;
  for (const [key, c] of strata) {
    const n = c.train + c.val + c.test;
    // Per class the split sizes are the rounded fractions (one sample of slack for each).
    if (Math.abs(c.train - n * fTrain) > 1 || Math.abs(c.val - n * fVal) > 1) problems.push(`${key}: split ${c.train}/${c.val}/${c.test} is not stratified`);
  }
  const total = stored.length;
  const plan = datasetPlan(manifest);
  // Judged on the plan, so a half-generated dataset is judged by what it will be.
  const empty = emptySplits(plan).map((e) => `empty split: ${e}`);
  const warnings: string[] = [];
  if (manifest.config.allowEmptySplits) warnings.push(...empty.map((e) => `${e} (recorded: allowEmptySplits)`));
  else problems.push(...empty);
  return { samples: total, missing: plan.length - total, byEnvironmentTask, problems, warnings, roles: manifest.config.roles };
}
