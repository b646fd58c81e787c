// Environment conformance check, in the spirit of Gymnasium's env checker: runs one task through
// the episode API and lists every way it breaks the contract every kind is held to (docs/DESIGN.md
// section 13), then adds the kind's own checks through its main module's `conformance` hook
// (SplatBench's: src/main/kinds/splatbench/conformance.ts). Nothing here names a kind.
// Inputs: a task id and a grader. Output: problems (empty = conforms) and informational notes.
// Invariant: read-only: no log is written and nothing in the task folder changes.
import { kindModule } from '../../shared/kinds/registry';
import type { KindTask } from '../kinds/kind';
import { loadAnyTask, mainKind } from '../kinds/registry';
import type { EnvGrader } from '../env/types';

export interface ConformanceReport {
  taskId: string;
  problems: string[];
  notes: string[];
}

/** `load`: how the task is loaded (the lab: its task repository, photos decoded on the worker pool); default loadAnyTask. */
export async function checkTask(taskId: string, grader: EnvGrader, tasksDir?: string, load?: (taskId: string) => Promise<KindTask>): Promise<ConformanceReport> {
  let task: KindTask;
  try {
    task = await (load ? load(taskId) : loadAnyTask(taskId, { tasksDir }));
  } catch (error) {
    return { taskId, problems: [`does not load: ${(error as Error).message}`], notes: [] };
  }
  const problems = await checkContract(task, grader);
  const own = await mainKind(task).conformance?.(task, grader);
  return { taskId, problems: [...problems, ...(own?.problems ?? [])], notes: own?.notes ?? [] };
}

/**
 * The part of the contract every kind keeps: two resets agree, the episode is not over before the
 * first call, an unknown tool is a refused call that costs one call, the kind's give-up call (or
 * the budget) ends the episode, and a call after the end is refused for free.
 */
async function checkContract(task: KindTask, grader: EnvGrader): Promise<string[]> {
  const problems: string[] = [];
  const kind = mainKind(task);
  const { env, obs } = await kind.reset(task, { grader, gradeEachStep: false });
  const again = await kind.reset(task, { grader, gradeEachStep: false });
  if (again.obs.text !== obs.text) problems.push('two resets give different first observations');
  if (obs.done) problems.push('episode is done before the first call');
  const calls = env.budgets().callsLeft;
  const out = await env.step({ tool: 'no_such_tool', args: {} });
  if (out.info.ok || out.info.step !== 1) problems.push('an unknown tool is not reported as a refused, charged call');
  if (env.budgets().callsLeft !== calls - 1) problems.push('an invalid call did not cost exactly one call');
  const { giveUp } = kindModule(task.spec.kind);
  for (let i = 0; !env.done && i <= calls; i++) await env.step({ tool: giveUp.tool, args: giveUp.args });
  if (!env.done) problems.push(`the give-up call ${giveUp.tool} does not end the episode`);
  const left = env.budgets().callsLeft;
  const after = await env.step({ tool: giveUp.tool, args: giveUp.args });
  if (!after.done || after.info.charged || env.budgets().callsLeft !== left) problems.push('calls after the end are not refused for free');
  await Promise.all([env.close(), again.env.close()]);
  return problems;
}
