// `splatlab grade`: the hidden grade of any scene file on a task's held-out views, for
// experimenters and task authors (never part of an episode). Input: task id, scene file
// ({"gaussians": [...]} loose or compact). Output: per-view metrics and the SplatScore, as a
// table or JSON. Invariant: bad input is one error line and exit status 1.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { packSplats } from '../../../shared/scene/gaussian';
import { parseSceneDocument } from '../../../shared/scene/input';
import { Grader, graderDevice } from '../../grader/grader';
import { photoCacheDir } from '../../grader/photo-cache';
import { labHome } from '../../io/home';
import { packedCacheDir } from '../../lpips/packed-cache';
import { cachedViewReader, viewCacheDir } from '../../tasks/view-cache';
import type { GradeResult } from '../../grader/types';
import { loadTask, TaskLoadError } from '../../tasks/load';
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { readJsonFile } from '../read-json';

/**
 * With SPLATLAB_PHASES=1, one stderr line `phases {"entry":ms,...}`: each phase's end in ms since
 * the process started (performance.now()), for `npm run bench -- cold` (docs/PERFORMANCE.md).
 */
function phaseClock(): { mark(name: string): void; report(io: { err(line: string): void }): void } {
  const on = process.env.SPLATLAB_PHASES === '1';
  const marks: Record<string, number> = {};
  return {
    mark: (name) => {
      if (on) marks[name] = Math.round(performance.now());
    },
    report: (io) => {
      if (on) io.err(`phases ${JSON.stringify(marks)}`);
    },
  };
}

const num = (x: number | null | undefined, digits: number): string => (x === null || x === undefined ? '-' : x.toFixed(digits));

/** The human-readable report: one row per held-out view, the means, the normalised terms, the score. */
export function gradeTable(result: GradeResult): string[] {
  const row = (name: string, psnr: number, ssim: number, lpips: number | null | undefined, iou: number): string =>
    `${name.padEnd(5)} ${num(psnr, 2).padStart(7)} ${num(ssim, 4).padStart(7)} ${num(lpips, 4).padStart(7)} ${num(iou, 3).padStart(6)}`;
  const n = result.normalized;
  return [
    `${'view'.padEnd(5)} ${'PSNR'.padStart(7)} ${'SSIM'.padStart(7)} ${'LPIPS'.padStart(7)} ${'IoU'.padStart(6)}`,
    ...result.perView.map((v) => row(v.name, v.psnr, v.ssim, v.lpips, v.iou)),
    row('mean', result.psnr, result.ssim, result.lpips, result.iou),
    `normalized: PSNR ${n.psnr.toFixed(1)}, SSIM ${n.ssim.toFixed(1)}, LPIPS ${n.lpips === null ? 'missing' : n.lpips.toFixed(1)}`,
    `SplatScore ${result.score.toFixed(2)} (reward ${result.reward.toFixed(3)}, training reward ${result.trainingReward.toFixed(3)})` +
      (result.lpipsMissing ? ' [LPIPS missing: mean of PSNR and SSIM terms only]' : ''),
  ];
}

export const command: CliCommand = {
  name: 'grade',
  usage: `splatlab grade --task ID --scene S.json [--json] [--device gpu|cpu] [--tasks DIR] [--lpips-dir DIR]

Grades a scene on the task's held-out views exactly as the hidden grader does at submit: PSNR,
SSIM, LPIPS and silhouette IoU per view, their means, each placed between the task's empty and
fit anchors, and the SplatScore with both rewards. S.json is {"gaussians": [...]} with loose items
{pos, color, scale?, rot?, opacity?, group?} or compact ones {p, s, q, c, o, g?}. --json prints
one JSON object instead of the table. Without LPIPS weights the score is the mean of two terms
and says so.`,
  async run(argv, io) {
    const phases = phaseClock();
    phases.mark('entry');
    const args = parseArgs(argv, { values: ['task', 'scene', 'device', 'tasks', 'lpips-dir'], flags: ['json'] });
    const device = stringOption(args, 'device') ?? 'gpu';
    if (device !== 'gpu' && device !== 'cpu') throw new CliError("--device must be 'gpu' or 'cpu'");
    const taskId = requireOption(args, 'task');
    const scenePath = requireOption(args, 'scene');
    if (!existsSync(scenePath)) throw new CliError(`scene file ${scenePath} does not exist`);
    const scene = parseSceneDocument(readJsonFile(scenePath, 'scene file'));
    if (!scene.ok) throw new CliError(`scene file ${scenePath}: ${scene.errors[0]}${scene.errors.length > 1 ? ` (and ${scene.errors.length - 1} more)` : ''}`);
    const tasksDir = stringOption(args, 'tasks');
    const lpipsDir = stringOption(args, 'lpips-dir');
    // Dawn (the webgpu package) loads only when a device may be used: --device cpu never starts it.
    const gpu = device === 'cpu' ? null : await (await import('../../gpu/device')).acquireGpu({});
    // Built before the task loads, so the LPIPS workers start while its photos are read.
    // The packed LPIPS weights, the photos' LPIPS taps and the decoded photos come from this
    // machine's caches (<lab home>/cache) after the first grade of a task.
    const home = labHome();
    phases.mark('device');
    // One grade: LPIPS keeps nothing per view for a next one (less fresh memory to touch).
    const grader = await Grader.create({
      ...(gpu ? graderDevice(gpu) : { device: null }),
      ...(lpipsDir ? { lpipsDir } : {}),
      photoCache: photoCacheDir(home),
      weightsCache: packedCacheDir(home),
      lpipsIncremental: false,
    });
    phases.mark('grader');
    try {
      const task = await loadTask(taskId, { ...(tasksDir ? { tasksDir } : {}), heldoutOnly: true, readViews: cachedViewReader(viewCacheDir(home)) }).catch((e: unknown) => {
        throw e instanceof TaskLoadError ? new CliError(e.message) : e;
      });
      phases.mark('task');
      const records = scene.records;
      for (const w of scene.warnings.slice(0, 5)) io.err(`warning: ${w}`);
      if (records.length > task.spec.max_gaussians) io.err(`note: ${records.length} Gaussians exceed the task's cap of ${task.spec.max_gaussians}; graded anyway`);
      const result = await grader.grade(task, packSplats(records));
      phases.mark('grade');
      phases.report(io);
      if (args.options.has('json')) {
        io.out(JSON.stringify({ task: taskId, device: grader.kind, gaussians: records.length, ...result }));
        return 0;
      }
      io.out(`Task ${taskId} (${task.spec.kind}), ${records.length} Gaussians, ${task.heldout.length} held-out views, graded on the ${grader.kind.toUpperCase()}` +
        (grader.lpipsAvailable ? '' : ` (no LPIPS: ${grader.lpipsProblem})`));
      for (const line of gradeTable(result)) io.out(line);
      return 0;
    } finally {
      grader.destroy();
    }
  },
};
