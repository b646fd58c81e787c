// The fits a task build can use: the fit helper's fitTask on the CPU float64 backend
// (deterministic: the same inputs give a bit-identical fit on any machine; the default) or on the
// GPU rasterizer (faster where a real GPU exists, not bit-reproducible across drivers).
// Input/Output: see FitFn in pipeline.ts; fitTask writes fit.json and fit_loss.png itself.
import { fitTask, type FitTaskOptions } from './fit/run';
import type { FitFn } from './pipeline';

export function taskFit(device: 'cpu' | 'gpu', extra: Pick<FitTaskOptions, 'backend'> = {}): FitFn {
  return async (source, request) => {
    const res = await fitTask(source, {
      steps: request.steps,
      seed: request.seed,
      device,
      ...extra,
      onProgress: (p) => request.onProgress?.(p.step, p.steps, p.loss),
    });
    return { records: res.records, losses: res.losses };
  };
}

export const cpuFit: FitFn = taskFit('cpu');
