// Runs the gradient-descent reference fit for a task's object and writes its outputs beside the
// photos: `fit.json` (compact form, docs/DESIGN.md section 5) and `fit_loss.png` (the loss curve).
// Input: a task id (read from the tasks folder: spec, cameras.json, ref/ photos and masks; no
// anchors or held-out photos are needed, since the fit comes before them) or a loaded task.
// Output: FitTaskResult (paths, records, losses, reference-view PSNR, timing).
// Invariant: both files are written atomically (temp file + rename), so a crash or a cancelled
// fit never leaves a partial fit.json; anchors are not touched (the authoring build recomputes them).
// The fit itself runs through a FitRunner (fit/compute.ts): on this thread, or on the worker pool.
import { writeFileAtomic } from '../../io/write-atomic';
import { join } from 'node:path';
import { DEFAULT_FIT_STEPS, type FitProgress, type FitView } from '../../../shared/authoring/fit/fit';
import type { FitBackend } from '../../../shared/authoring/fit/backend';
import type { GaussianRecord } from '../../../shared/scene/gaussian';
import { sceneFileJson } from '../../../shared/scene/input';
import type { TaskSpec } from '../../../shared/task/schema';
import { readObjectDir, resolveTasksDir } from '../../tasks/paths';
import { readCameras, readSpec, readViews, type RefView } from '../../tasks/load';
import { chooseFitBackend, type FitDevice } from './backend';
import { localRunner, type FitRunner } from './compute';
import { localLossPlot, type LossPlotPng } from './plot';

export const FIT_FILE = 'fit.json';
export const FIT_PLOT_FILE = 'fit_loss.png';
export const DEFAULT_FIT_SEED = 0;
const CPU_BACKEND = 'cpu';

/** What a fit needs of a task: its spec, object folder and reference views. */
export interface FitSource {
  spec: TaskSpec;
  dir: string;
  reference: RefView[];
}

export interface FitTaskOptions {
  steps?: number; // default 2000
  seed?: number; // default 0
  device?: FitDevice; // default 'auto': a hardware GPU, else the CPU reference
  tasksDir?: string;
  backend?: FitBackend; // overrides `device` (tests, benchmarks)
  onBackend?: (description: string) => void;
  onProgress?: (p: FitProgress) => void;
  signal?: AbortSignal;
  /** Where the fit runs (the worker pool's poolRunner, fit/compute.ts); overrides `device` and `backend`. */
  runner?: FitRunner;
  /** Where fit_loss.png is drawn and encoded (the lab: its worker pool); default this thread. */
  plot?: LossPlotPng;
}

export interface FitTaskResult {
  fitPath: string;
  plotPath: string;
  records: GaussianRecord[];
  losses: number[];
  referencePsnr: { name: string; psnr: number }[];
  meanReferencePsnr: number;
  backend: string;
  elapsedMs: number;
}

/** Reads a task's spec and reference views (no anchors, no held-out photos). */
export function readFitSource(taskId: string, tasksDir?: string): FitSource {
  const root = resolveTasksDir(tasksDir);
  const spec = readSpec(root, taskId);
  const dir = readObjectDir(root, spec.object);
  const what = `task ${taskId}`;
  const cameras = readCameras(dir, what);
  return { spec, dir, reference: readViews(dir, 'ref', cameras.reference, what) };
}


export async function fitTask(task: string | FitSource, options: FitTaskOptions = {}): Promise<FitTaskResult> {
  const source = typeof task === 'string' ? readFitSource(task, options.tasksDir) : task;
  const chosen: { run: FitRunner; name: string; description: string; release: () => void } = options.runner
    ? { run: options.runner, name: CPU_BACKEND, description: 'fit on the CPU reference rasterizer on the worker pool', release: () => {} }
    : options.backend
      ? { run: localRunner(options.backend), name: options.backend.name, description: `fit on the ${options.backend.name} backend`, release: () => {} }
      : await chooseFitBackend(options.device ?? 'auto').then((c) => ({ ...c, run: localRunner(c.backend), name: c.backend.name }));
  options.onBackend?.(chosen.description);
  const start = Date.now();
  try {
    const views: FitView[] = source.reference.map((v) => ({ camera: v.camera, photo: v.photo, mask: v.mask }));
    const input = { views, maxGaussians: source.spec.max_gaussians, steps: options.steps ?? DEFAULT_FIT_STEPS, seed: options.seed ?? DEFAULT_FIT_SEED, referencePsnr: true };
    const { records, losses, referencePsnr: psnrs } = await chosen.run(input, (t) => {
      if (t.losses.length) options.onProgress?.({ step: t.step, steps: t.steps, loss: t.losses[t.losses.length - 1], elapsedMs: t.elapsedMs });
    }, options.signal);
    const referencePsnr = source.reference.map((v, i) => ({ name: v.name, psnr: psnrs[i] }));
    const fitPath = join(source.dir, FIT_FILE);
    const plotPath = join(source.dir, FIT_PLOT_FILE);
    writeFileAtomic(fitPath, `${JSON.stringify(sceneFileJson(records))}\n`);
    const title = `${source.spec.object}: ${losses.length} steps, ${records.length} Gaussians, ${chosen.name}`;
    writeFileAtomic(plotPath, await (options.plot ?? localLossPlot)(losses, title));
    const mean = referencePsnr.reduce((a, v) => a + v.psnr, 0) / Math.max(1, referencePsnr.length);
    return { fitPath, plotPath, records, losses, referencePsnr, meanReferencePsnr: mean, backend: chosen.name, elapsedMs: Date.now() - start };
  } finally {
    chosen.release();
  }
}
