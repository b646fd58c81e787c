// Small WebGPU helpers for the metric pipelines: an arena that owns the buffers of one plan, and
// prebuilt compute passes (kernel + bind group + workgroup counts) so a batch is encoded with no
// allocation. Kernels come from the device's kernel cache (src/shared/gpu/kernel.ts) with
// explicit bind group layouts; a pass's uniform Params and buffers are given by field and binding
// name (METRIC_KERNELS in kernels.ts), never by position.
import type { ShaderLibrary } from '../../gpu/compose';
import { METRICS_WORKGROUP } from '../../gpu/constants';
import { BufferUsage } from '../../gpu/flags';
import { bindKernel, getKernel, type BufferNames, type ParamsFields, type ParamsKernelSpec } from '../../gpu/kernel';
import { writeStruct, type StructValues } from '../../gpu/struct';

export interface ComputePass {
  pipeline: GPUComputePipeline;
  bindGroup: GPUBindGroup;
  workgroups: [number, number, number];
}

/** Owns GPU buffers created for one purpose, so they are destroyed together. */
export class GpuArena {
  private readonly owned: GPUBuffer[] = [];

  constructor(readonly device: GPUDevice) {}

  /** A zero-filled storage buffer of `bytes` (rounded up to 16), copyable both ways. */
  storage(bytes: number, label: string): GPUBuffer {
    const buffer = this.device.createBuffer({
      label,
      size: Math.max(16, Math.ceil(bytes / 16) * 16),
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    this.owned.push(buffer);
    return buffer;
  }

  /** A storage buffer holding `data`. */
  upload(data: Float32Array, label: string): GPUBuffer {
    const buffer = this.storage(data.byteLength, label);
    this.device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
    return buffer;
  }

  uniform(data: ArrayBuffer, label: string): GPUBuffer {
    const buffer = this.device.createBuffer({ label, size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
    this.device.queue.writeBuffer(buffer, 0, data);
    this.owned.push(buffer);
    return buffer;
  }

  readback(bytes: number, label: string): GPUBuffer {
    const buffer = this.device.createBuffer({ label, size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
    this.owned.push(buffer);
    return buffer;
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
    this.owned.length = 0;
  }
}

/** Builds the passes of the metrics shaders on one device and shader library. */
export class MetricKernels {
  constructor(
    readonly device: GPUDevice,
    readonly library: ShaderLibrary,
  ) {}

  /** A pass of kernel `spec` with its Params fields and buffers given by name. */
  pass<S extends ParamsKernelSpec>(
    arena: GpuArena,
    spec: S,
    params: StructValues<ParamsFields<S>>,
    buffers: Readonly<Record<BufferNames<S>, GPUBuffer>>,
    workgroups: [number, number, number],
  ): ComputePass {
    const kernel = getKernel(this.device, this.library, spec);
    const uniformBuffer = arena.uniform(writeStruct(spec.bindings.params.struct, params), `${spec.file} params`);
    const bindGroup = bindKernel(this.device, kernel, { ...buffers, params: uniformBuffer } as Record<string, GPUBuffer>, spec.file);
    for (const w of workgroups) {
      if (w > 65535) throw new Error(`${spec.file}: ${w} workgroups in one dimension exceeds the WebGPU limit`);
    }
    return { pipeline: kernel.pipeline, bindGroup, workgroups };
  }
}

/** Records passes into one compute pass encoder, in order. */
export function encodePasses(encoder: GPUCommandEncoder, passes: readonly ComputePass[]): void {
  const pass = encoder.beginComputePass();
  for (const p of passes) {
    if (p.workgroups.some((w) => w === 0)) continue;
    pass.setPipeline(p.pipeline);
    pass.setBindGroup(0, p.bindGroup);
    pass.dispatchWorkgroups(...p.workgroups);
  }
  pass.end();
}

/** Workgroups covering n invocations of a 1D metrics stage. */
export const groups = (n: number): number => Math.ceil(n / METRICS_WORKGROUP);
