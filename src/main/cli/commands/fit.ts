// `splatlab fit --task ID`: the gradient-descent reference fit of a task's object, written to
// the object's fit.json and fit_loss.png, with a progress bar on stderr. Anchors are not
// recomputed here (the authoring build does that with the grader).
import { parseArgs, requireOption, stringOption } from '../args';
import { CliError, type CliCommand } from '../command';
import { DEFAULT_FIT_STEPS } from '../../../shared/authoring/fit/fit';
import { DEFAULT_FIT_SEED, fitTask } from '../../authoring/fit/run';
import { FitProgressBar, formatDuration } from '../../authoring/fit/progress';

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
steps of 0.8 L1 + 0.2 (1 - SSIM) + silhouette loss by default) and writes fit.json and
fit_loss.png into the object's folder. Seeded: the same seed on the CPU gives the same fit.
--device auto (default): the WebGPU rasterizer on a hardware GPU, else the CPU reference (faster
than software Vulkan); gpu: any WebGPU adapter, SwiftShader included; cpu: the CPU reference.
Does not recompute anchors.json (the authoring build does). Ctrl+C cancels without writing.`,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['task', 'steps', 'seed', 'device', 'tasks'] });
    const taskId = requireOption(args, 'task');
    const steps = intOption(stringOption(args, 'steps'), 'steps', DEFAULT_FIT_STEPS, 1);
    const seed = intOption(stringOption(args, 'seed'), 'seed', DEFAULT_FIT_SEED, 0);
    const device = stringOption(args, 'device') ?? 'auto';
    if (device !== 'auto' && device !== 'gpu' && device !== 'cpu') throw new CliError("--device must be 'auto', 'gpu' or 'cpu'");
    if (args.positionals.length) throw new CliError(`unexpected argument '${args.positionals[0]}'`);

    const bar = new FitProgressBar({ write: (t) => process.stderr.write(t), isTTY: process.stderr.isTTY === true, label: taskId });
    const controller = new AbortController();
    const onSigint = (): void => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const result = await fitTask(taskId, {
        steps,
        seed,
        device,
        tasksDir: stringOption(args, 'tasks'),
        onBackend: (line) => io.err(line),
        onProgress: (p) => bar.update(p),
        signal: controller.signal,
      });
      bar.finish();
      io.out(`wrote ${result.fitPath} (${result.records.length} Gaussians) and ${result.plotPath}`);
      io.out(`${steps} steps on ${result.backend} in ${formatDuration(result.elapsedMs)}; final loss ${result.losses[result.losses.length - 1]?.toFixed(5) ?? '-'}`);
      const per = result.referencePsnr.map((v) => `${v.name} ${v.psnr.toFixed(2)}`).join(', ');
      io.out(`reference-view PSNR ${result.meanReferencePsnr.toFixed(2)} dB (${per}); held-out views not used`);
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
      process.off('SIGINT', onSigint);
    }
  },
};
