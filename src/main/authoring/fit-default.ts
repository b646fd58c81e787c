// The fit used by task builds: the project's gradient-descent reference (fitGaussians) on the
// CPU float64 backend, which is deterministic (same inputs => bit-identical fit on any machine).
// Input/Output: see FitFn in pipeline.ts.
import { cpuFitBackend } from '../../shared/authoring/fit/backend';
import { fitGaussians } from '../../shared/authoring/fit/fit';
import type { FitFn } from './pipeline';

export const cpuFit: FitFn = async (views, request) => {
  const result = await fitGaussians(
    { views, maxGaussians: request.maxGaussians, steps: request.steps, seed: request.seed },
    cpuFitBackend(),
    (p) => request.onProgress?.(p.step, p.steps, p.loss),
  );
  return { records: result.records, losses: result.losses };
};
