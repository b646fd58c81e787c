// Small WebGPU helpers for the metric pipelines: an arena that owns the buffers of one plan,
// pipeline creation from the shader library, and prebuilt compute passes (pipeline + bind group
// + workgroup counts) so a batch is encoded with no allocation.
// Binding convention of every metrics shader: @binding(0) a uniform Params struct, then the
// storage buffers in the order listed, all in @group(0).
import { composeShader, type ShaderLibrary } from '../../gpu/compose';

// Numeric flags of the WebGPU spec, spelled out so this file needs no global GPUBufferUsage.
export const USAGE = { MAP_READ: 0x1, COPY_SRC: 0x4, COPY_DST: 0x8, UNIFORM: 0x40, STORAGE: 0x80 } as const;

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
      usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST,
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
    const buffer = this.device.createBuffer({ label, size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: USAGE.UNIFORM | USAGE.COPY_DST });
    this.device.queue.writeBuffer(buffer, 0, data);
    this.owned.push(buffer);
    return buffer;
  }

  readback(bytes: number, label: string): GPUBuffer {
    const buffer = this.device.createBuffer({ label, size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: USAGE.MAP_READ | USAGE.COPY_DST });
    this.owned.push(buffer);
    return buffer;
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
    this.owned.length = 0;
  }
}

/** Compute pipelines of the metrics shaders, compiled once per device. */
export class MetricKernels {
  private readonly pipelines = new Map<string, GPUComputePipeline>();

  constructor(
    readonly device: GPUDevice,
    readonly library: ShaderLibrary,
  ) {}

  pipeline(file: string): GPUComputePipeline {
    let p = this.pipelines.get(file);
    if (!p) {
      const module = this.device.createShaderModule({ label: file, code: composeShader(file, this.library) });
      p = this.device.createComputePipeline({ label: file, layout: 'auto', compute: { module, entryPoint: 'main' } });
      this.pipelines.set(file, p);
    }
    return p;
  }

  /** A pass of shader `file` with Params words `params` (u32 unless given as an ArrayBuffer). */
  pass(arena: GpuArena, file: string, params: number[] | ArrayBuffer, buffers: GPUBuffer[], workgroups: [number, number, number]): ComputePass {
    const pipeline = this.pipeline(file);
    const words = params instanceof ArrayBuffer ? params : Uint32Array.from(params).buffer;
    const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: arena.uniform(words, `${file} params`) } }];
    buffers.forEach((buffer, i) => entries.push({ binding: i + 1, resource: { buffer } }));
    const bindGroup = this.device.createBindGroup({ label: file, layout: pipeline.getBindGroupLayout(0), entries });
    for (const w of workgroups) {
      if (w > 65535) throw new Error(`${file}: ${w} workgroups in one dimension exceeds the WebGPU limit`);
    }
    return { pipeline, bindGroup, workgroups };
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

export const WG = 64;
export const groups = (n: number): number => Math.ceil(n / WG);
