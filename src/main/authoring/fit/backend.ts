// Chooses the fit backend in main, with one line saying which and why.
// Input: the requested device. 'auto' (the default): the grader's WGSL rasterizer on a hardware
// adapter, else the CPU reference, because SwiftShader (software Vulkan) runs a 256x256
// forward + backward about 100x slower than the CPU reference (bench/fit.bench.ts). 'gpu': any
// WebGPU adapter, SwiftShader included, falling back to the CPU when none exists. 'cpu': forced.
// Output: a FitBackend plus a description and a release function. The CPU one runs a step's row
// bands on this thread and a helper thread (bands.ts, issue 40).
// Invariant: the WGSL comes from shaders/ at the repository root (loadShaders), read once.
import type { FitBackend } from '../../../shared/authoring/fit/backend';
import { gpuFitBackend } from '../../../shared/authoring/fit/backend-gpu';
import { GpuRasterizer } from '../../../shared/raster/gpu';
import { acquireGpu } from '../../gpu/device';
import { loadShaders } from '../../gpu/shaders';
import { parallelCpuFitBackend } from './bands';
import type { FitRunner } from './compute';

export type FitDevice = 'auto' | 'gpu' | 'cpu';

export interface ChosenBackend {
  backend: FitBackend;
  description: string; // one line for the user
  release: () => void;
  /** Where the fit runs when not on this thread (the worker pool's poolRunner, fit/compute.ts). */
  runner?: FitRunner;
}

export async function chooseFitBackend(device: FitDevice): Promise<ChosenBackend> {
  const gpu = await acquireGpu({ forceCpu: device === 'cpu' });
  // The CPU reference in row bands on this thread and a helper (bands.ts): both cores.
  const cpu = (why: string): ChosenBackend => {
    const backend = parallelCpuFitBackend();
    return { backend, description: `fit on the CPU reference rasterizer: ${why}`, release: () => backend.dispose?.() };
  };
  if (!gpu.device) return cpu(gpu.status.summary);
  if (device === 'auto' && gpu.status.path !== 'hardware') {
    return cpu('the only WebGPU adapter is SwiftShader (software), which is far slower than the CPU reference for fitting; pass --device gpu to use it anyway.');
  }
  const rasterizer = GpuRasterizer.create(gpu.device, loadShaders());
  return {
    backend: gpuFitBackend(rasterizer),
    description: `fit on the GPU rasterizer: ${gpu.status.summary}`,
    release: () => rasterizer.destroy(),
  };
}
