// Chooses the fit backend in main: the grader's WGSL rasterizer on the Dawn device when one is
// available (hardware, else SwiftShader), else the CPU reference, with one line saying which.
// Input: the requested device ('gpu' tries the GPU path and falls back; 'cpu' forces the CPU).
// Output: a FitBackend plus a description and a release function.
// Invariant: the WGSL comes from shaders/ at the repository root, read once per process.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ShaderLibrary } from '../../../shared/gpu/compose';
import { cpuFitBackend, type FitBackend } from '../../../shared/authoring/fit/backend';
import { gpuFitBackend } from '../../../shared/authoring/fit/backend-gpu';
import { GpuRasterizer } from '../../../shared/raster/gpu';
import { acquireGpu } from '../../gpu/device';
import { repoRoot } from '../../io/data-dir';

export type FitDevice = 'gpu' | 'cpu';

export interface ChosenBackend {
  backend: FitBackend;
  description: string; // one line for the user
  release: () => void;
}

let library: ShaderLibrary | undefined;

/** Every shaders/*.wgsl file by name (the ShaderLibrary the GPU host code composes from). */
export function shaderLibrary(dir = join(repoRoot(), 'shaders')): ShaderLibrary {
  if (!library) {
    const out: ShaderLibrary = {};
    for (const file of readdirSync(dir).sort()) if (file.endsWith('.wgsl')) out[file] = readFileSync(join(dir, file), 'utf8');
    library = out;
  }
  return library;
}

export async function chooseFitBackend(device: FitDevice): Promise<ChosenBackend> {
  const gpu = await acquireGpu({ forceCpu: device === 'cpu' });
  if (!gpu.device) {
    return { backend: cpuFitBackend(), description: `fit on the CPU reference rasterizer: ${gpu.status.summary}`, release: () => {} };
  }
  const rasterizer = GpuRasterizer.create(gpu.device, shaderLibrary());
  return {
    backend: gpuFitBackend(rasterizer),
    description: `fit on the GPU rasterizer: ${gpu.status.summary}`,
    release: () => rasterizer.destroy(),
  };
}
