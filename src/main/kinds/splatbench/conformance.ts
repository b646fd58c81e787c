// SplatBench's own part of the environment conformance check (`splatlab check`,
// src/main/episodes/conformance.ts; docs/DESIGN.md section 13): its spec and kind budgets, its
// photos and cameras, the first observation (footer, reference sheet, no held-out leak), that an
// invalid call leaves the scene as it was, and that the grader scores the empty scene 0 and the
// fit 100. Reached through its main module's `conformance` hook; the shared check runs the
// contract every kind is held to first.
// Input: a loaded task and a grader. Output: problems (empty = conforms) and notes.
// Invariant: read-only: no log is written and nothing in the task folder changes.
import { packRecords, sceneProblems } from '../../../shared/scene/records';
import { budgetFooter } from '../../../shared/kinds/splatbench/format';
import { readFit, type LoadedTask } from '../../tasks/load';
import type { EnvGrader } from '../../env/types';
import type { KindConformance } from '../kind';
import { SplatEnv } from './env';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
/** Score tolerance for the anchors: they were computed by a grader, possibly on another device. */
const ANCHOR_TOLERANCE = 0.5;

export async function splatConformance(task: LoadedTask, grader: EnvGrader): Promise<KindConformance> {
  const problems: string[] = [];
  const notes: string[] = [];
  checkSpec(task, problems);
  checkViews(task, problems);

  const heldoutNames = task.heldout.map((v) => v.name).filter((n) => !task.reference.some((r) => r.name === n));
  const leaks = (text: string, where: string) => {
    for (const name of heldoutNames) if (new RegExp(`\\b${name}\\b`).test(text)) problems.push(`${where} mentions held-out view ${name}`);
    if (/\b(score|lpips|anchor)/i.test(text)) problems.push(`${where} mentions a hidden quantity: ${text.slice(0, 80)}`);
  };

  const { env, obs } = await SplatEnv.reset(task, { grader, gradeEachStep: false });
  const spec = task.spec;
  const startCount = task.init?.length ?? 0;
  const footer0 = budgetFooter({ gaussians: startCount, maxGaussians: spec.max_gaussians, callsLeft: spec.max_tool_calls, rendersLeft: spec.max_renders });
  if (!obs.text.trimEnd().endsWith(footer0)) problems.push(`first observation does not end with ${footer0}`);
  if (!obs.image || !PNG_SIGNATURE.every((b, i) => obs.image?.[i] === b)) problems.push('first observation has no PNG reference sheet');
  leaks(obs.text, 'first observation');

  const before = JSON.stringify(env.scene().records);
  const out = await env.step({ tool: 'no_such_tool', args: {} });
  if (JSON.stringify(env.scene().records) !== before) problems.push('an invalid call changed the scene');
  leaks(out.text, 'an error text');
  await env.close();

  await checkScores(task, grader, problems, notes);
  return { problems, notes };
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
