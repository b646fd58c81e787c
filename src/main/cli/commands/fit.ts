// `splatlab fit --task ID`: the gradient-descent reference fit of a task's object from the photos
// in its folder, with a progress bar on stderr; then everything derived from the fit is
// recomputed with it (scramble, anchors, specs, build.json history), so `splatlab check` passes
// after a refit. Atomic: a failed or cancelled refit leaves the object as it was.
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { DEFAULT_FIT_STEPS } from '../../../shared/authoring/fit/fit';
import { DEFAULT_FIT_SEED, fitTask, type FitTaskResult } from '../../authoring/fit/run';
import { FitProgressBar, formatDuration } from '../../authoring/fit/progress';
import { refitFromPhotos } from '../../authoring/rebuild';
import { Grader } from '../../grader/grader';
import { readSpec } from '../../tasks/load';
import { resolveTasksDir } from '../../tasks/paths';

function intOption(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new CliError(`--${name} must be an integer >= ${min} (got '${value}')`);
  return n;
}

export const command: CliCommand = {
  name: 'fit',
  usage: `splatlab fit --task ID [--steps N] [--seed S] [--device auto|gpu|cpu] [--tasks DIR]

Fits the task's Gaussian cap to its reference photos (visual-hull start, then ${DEFAULT_FIT_STEPS} Adam
steps of 0.8 L1 + 0.2 (1 - SSIM) + silhouette loss by default), writes fit.json and
fit_loss.png into the object's folder, and recomputes what depends on the fit: the reassembly
scramble, anchors.json (CPU grader), the specs and build.json (its history gains the refit).
Seeded: the same seed on the CPU gives the same fit.
--device auto (default): the WebGPU rasterizer on a hardware GPU, else the CPU reference (faster
than software Vulkan); gpu: any WebGPU adapter, SwiftShader included; cpu: the CPU reference.
Ctrl+C cancels without writing.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['task', 'steps', 'seed', 'device', 'tasks'] });
    const taskId = requireOption(args, 'task');
    const steps = intOption(stringOption(args, 'steps'), 'steps', DEFAULT_FIT_STEPS, 1);
    const seed = intOption(stringOption(args, 'seed'), 'seed', DEFAULT_FIT_SEED, 0);
    const device = stringOption(args, 'device') ?? 'auto';
    if (device !== 'auto' && device !== 'gpu' && device !== 'cpu') throw new CliError("--device must be 'auto', 'gpu' or 'cpu'");
    if (args.positionals.length) throw new CliError(`unexpected argument '${args.positionals[0]}'`);

    const tasksDir = resolveTasksDir(stringOption(args, 'tasks'));
    let spec;
    try {
      spec = readSpec(tasksDir, taskId);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    const bar = new FitProgressBar({ write: (t) => process.stderr.write(t), isTTY: process.stderr.isTTY === true, label: taskId });
    const controller = new AbortController();
    const onSigint = (): void => controller.abort();
    process.once('SIGINT', onSigint);
    const grader = await Grader.create({ device: null });
    let fitted: FitTaskResult | null = null;
    try {
      const built = await refitFromPhotos(spec.object, {
        tasksDir,
        steps,
        seed,
        grader,
        log: () => undefined,
        fit: async (source) => {
          fitted = await fitTask(source, { steps, seed, device, onBackend: (line) => io.err(line), onProgress: (p) => bar.update(p), signal: controller.signal });
          return { records: fitted.records, losses: fitted.losses };
        },
      });
      bar.finish();
      const result = fitted as FitTaskResult | null;
      if (!result) throw new Error('the fit did not run');
      io.out(`wrote ${built.objectDir}/fit.json (${result.records.length} Gaussians) and fit_loss.png`);
      io.out(`${steps} steps on ${result.backend} in ${formatDuration(result.elapsedMs)}; final loss ${result.losses[result.losses.length - 1]?.toFixed(5) ?? '-'}`);
      const per = result.referencePsnr.map((v) => `${v.name} ${v.psnr.toFixed(2)}`).join(', ');
      io.out(`reference-view PSNR ${result.meanReferencePsnr.toFixed(2)} dB (${per})`);
      const a = built.anchors;
      io.out(`anchors on the held-out views: empty PSNR ${a.empty.psnr.toFixed(2)}, fit PSNR ${a.fit.psnr.toFixed(2)}; rescrambled and wrote ${built.specs.map((s) => s.task_id).join(', ')}`);
      return 0;
    } catch (err) {
      bar.finish();
      if (controller.signal.aborted) {
        io.err('fit cancelled; nothing was written');
        return 130;
      }
      if (err instanceof Error && /TaskLoadError/.test(err.name)) throw new CliError(err.message);
      throw err;
    } finally {
      grader.destroy();
      process.off('SIGINT', onSigint);
    }
  },
};
