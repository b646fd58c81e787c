// Environment conformance check, in the spirit of Gymnasium's env checker: runs one task through
// the episode API and the grader and lists every way it breaks the contract.
// Inputs: a task id and a grader. Output: problems (empty = conforms) and informational notes.
// Invariant: read-only: no log is written and nothing in the task folder changes.
import { packRecords, sceneProblems } from '../../shared/env/scene';
import { budgetFooter } from '../../shared/env/format';
import { loadTask, readFit, readSpecHead, type LoadedTask } from '../tasks/load';
import { kindModule } from '../../shared/kinds/registry';
import { loadAnyTask, mainKind } from '../kinds/registry';
import { resolveTasksDir } from '../tasks/paths';
import type { EnvGrader } from '../env/types';

export interface ConformanceReport {
  taskId: string;
  problems: string[];
  notes: string[];
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
/** Score tolerance for the anchors: they were computed by a grader, possibly on another device. */
const ANCHOR_TOLERANCE = 0.5;

/** `load`: how the task is loaded (the lab: its task repository, photos decoded on the worker pool); default loadTask. */
export async function checkTask(taskId: string, grader: EnvGrader, tasksDir?: string, load?: (taskId: string) => Promise<LoadedTask>): Promise<ConformanceReport> {
  const problems: string[] = [];
  const notes: string[] = [];
  let task: LoadedTask;
  try {
    const head = readSpecHead(resolveTasksDir(tasksDir), taskId);
    // The full check below is SplatBench's (its grader, its scene); other kinds get the generic one.
    if (!mainKind(head.kind).sceneGraded) return checkOtherKind(taskId, grader, tasksDir);
    task = await (load ? load(taskId) : loadTask(taskId, { tasksDir }));
  } catch (error) {
    return { taskId, problems: [`does not load: ${(error as Error).message}`], notes };
  }
  checkSpec(task, problems);
  checkViews(task, problems);

  const heldoutNames = task.heldout.map((v) => v.name).filter((n) => !task.reference.some((r) => r.name === n));
  const leaks = (text: string, where: string) => {
    for (const name of heldoutNames) if (new RegExp(`\\b${name}\\b`).test(text)) problems.push(`${where} mentions held-out view ${name}`);
    if (/\b(score|lpips|anchor)/i.test(text)) problems.push(`${where} mentions a hidden quantity: ${text.slice(0, 80)}`);
  };

  const { env, obs } = await mainKind(task).reset(task, { grader, gradeEachStep: false });
  const spec = task.spec;
  const startCount = task.init?.length ?? 0;
  const footer0 = budgetFooter({ gaussians: startCount, maxGaussians: spec.max_gaussians, callsLeft: spec.max_tool_calls, rendersLeft: spec.max_renders });
  if (!obs.text.trimEnd().endsWith(footer0)) problems.push(`first observation does not end with ${footer0}`);
  if (!obs.image || !PNG_SIGNATURE.every((b, i) => obs.image?.[i] === b)) problems.push('first observation has no PNG reference sheet');
  if (obs.done) problems.push('episode is done before the first call');
  leaks(obs.text, 'first observation');

  const again = await mainKind(task).reset(task, { grader, gradeEachStep: false });
  if (again.obs.text !== obs.text) problems.push('two resets give different first observations');

  if (!env.scene) problems.push('the episode shows no scene');
  const before = JSON.stringify(env.scene?.().records);
  const out = await env.step({ tool: 'no_such_tool', args: {} });
  if (out.info.ok || out.info.step !== 1) problems.push('an unknown tool is not reported as a refused, charged call');
  if (JSON.stringify(env.scene?.().records) !== before) problems.push('an invalid call changed the scene');
  if (env.budgets().callsLeft !== spec.max_tool_calls - 1) problems.push('an invalid call did not cost exactly one call');
  leaks(out.text, 'an error text');
  while (!env.done) await env.step({ tool: 'list_gaussians', args: {} });
  const after = await env.step({ tool: 'list_gaussians', args: {} });
  if (!after.done || env.budgets().callsLeft !== 0) problems.push('calls after the end are not refused for free');

  await checkScores(task, grader, problems, notes);
  return { taskId, problems, notes };
}

/**
 * The kind-independent part of the contract for the other kinds: two resets agree, an unknown
 * tool is a refused call that costs one call, the kind's give-up call (or the budget) ends the
 * episode, and a call after the end is refused for free.
 */
async function checkOtherKind(taskId: string, grader: EnvGrader, tasksDir?: string): Promise<ConformanceReport> {
  const problems: string[] = [];
  const task = await loadAnyTask(taskId, { tasksDir });
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
  return { taskId, problems, notes: [] };
}

function checkSpec(task: LoadedTask, problems: string[]): void {
  const { spec, init } = task;
  if (spec.kind === 'oneshot' && (spec.max_tool_calls !== 1 || spec.max_renders !== 0)) problems.push('a one-shot task must allow 1 call and 0 renders');
  if (spec.kind === 'sculpt' && init) problems.push('a sculpt task must start empty (init_npz null)');
  if (spec.kind === 'reassembly') {
    if (!init || init.length === 0) problems.push('a reassembly task needs its init Gaussians');
    else if (init.some((g) => !g.group)) problems.push('every reassembly Gaussian needs a group label');
  }
  if (init) {
    if (init.length > spec.max_gaussians) problems.push(`init has ${init.length} Gaussians, over the budget of ${spec.max_gaussians}`);
    for (const p of sceneProblems(init, Math.max(0, ...init.map((g) => g.id)) + 1)) problems.push(`init scene: ${p}`);
  }
}

function checkViews(task: LoadedTask, problems: string[]): void {
  for (const view of [...task.reference, ...task.heldout]) {
    const { width, height } = view.camera;
    if (view.photo.width !== width || view.photo.height !== height) problems.push(`${view.name}: photo ${view.photo.width}x${view.photo.height} does not match its camera ${width}x${height}`);
    if (view.mask.length !== width * height) problems.push(`${view.name}: mask size does not match its camera`);
    if (!view.mask.some((m) => m > 0.5)) problems.push(`${view.name}: the object is not visible (empty mask)`);
  }
}

async function checkScores(task: LoadedTask, grader: EnvGrader, problems: string[], notes: string[]): Promise<void> {
  const fit = readFit(task.dir, task.spec.task_id);
  if (fit.length > task.spec.max_gaussians) problems.push(`the fit has ${fit.length} Gaussians, over the cap of ${task.spec.max_gaussians}`);
  const empty = await grader.grade(task, packRecords([]));
  const fitted = await grader.grade(task, packRecords(fit));
  const fittedAgain = await grader.grade(task, packRecords(fit));
  if (Math.abs(empty.score) > ANCHOR_TOLERANCE) problems.push(`the empty scene scores ${empty.score.toFixed(2)}, not 0`);
  if (Math.abs(fitted.score - 100) > ANCHOR_TOLERANCE) problems.push(`the fit scores ${fitted.score.toFixed(2)}, not 100`);
  if (fittedAgain.score !== fitted.score) problems.push('grading the same scene twice gave different scores');
  if (!(task.anchors.fit.psnr > task.anchors.empty.psnr)) problems.push('the fit does not beat the empty scene in PSNR');
  if (task.anchors.fit.lpips === null || fitted.lpipsMissing) notes.push('LPIPS not in the score (weights missing or anchors without LPIPS)');
  notes.push(`fit ${fit.length} Gaussians, held-out PSNR ${task.anchors.fit.psnr.toFixed(2)} dB vs empty ${task.anchors.empty.psnr.toFixed(2)} dB`);
}
