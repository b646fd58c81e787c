// The one way host code runs a WGSL compute entry point: a KernelSpec names the shader file, the
// entry point and every @group(0) binding in binding order (name, access, struct layout), the
// device's kernel cache compiles it once with an explicit bind group layout, and bind groups are
// made from buffers given by binding name.
// Inputs: a GPUDevice, the ShaderLibrary and KernelSpecs. Outputs: Kernels (pipeline + layout).
// Invariants: one cache per device (modules by composed WGSL, layouts by binding kinds, pipelines
// by code and entry point), so equal specs share objects and bind groups made for one kernel fit
// every kernel with the same binding kinds; binding names, order and kinds equal the WGSL
// declarations (checked by test/shared/gpu/wgsl-structs.test.ts).
import { composeShader, type ShaderLibrary } from './compose';
import { ShaderStage } from './flags';
import type { WgslStruct } from './struct';

export type BindingKind = 'uniform' | 'read' | 'rw';

export interface BindingSpec {
  kind: BindingKind;
  /** The struct of the binding (a uniform's type, a storage array's element), if it is one. */
  struct?: WgslStruct<string>;
}

/** A uniform binding of one struct; its field names stay in the type so params are typed. */
export interface UniformSpec<F extends string> extends BindingSpec {
  kind: 'uniform';
  struct: WgslStruct<F>;
}

export const uniform = <F extends string>(struct: WgslStruct<F>): UniformSpec<F> => ({ kind: 'uniform', struct });
export const read = (struct?: WgslStruct<string>): BindingSpec => ({ kind: 'read', struct });
export const rw = (struct?: WgslStruct<string>): BindingSpec => ({ kind: 'rw', struct });

export interface KernelSpec<B extends string = string> {
  file: string;
  entry: string;
  /** Bindings of @group(0) in binding order; keys are the WGSL variable names. */
  bindings: Readonly<Record<B, BindingSpec>>;
}

export interface Kernel<B extends string = string> {
  spec: KernelSpec<B>;
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

/** A whole buffer, or its first `size` bytes. */
export type BindingResource = GPUBuffer | { buffer: GPUBuffer; size: number };

/** Declares a kernel spec, keeping its binding names (and a uniform's struct) as types. */
export function kernelSpec<const T extends Record<string, BindingSpec>>(file: string, entry: string, bindings: T): KernelSpec<Extract<keyof T, string>> & { bindings: T } {
  return { file, entry, bindings };
}

/** A kernel whose binding 0 is a uniform struct named `params` (every metrics and LPIPS stage). */
export type ParamsKernelSpec = KernelSpec & { bindings: { params: UniformSpec<string> } };
/** Field names of a ParamsKernelSpec's uniform struct. */
export type ParamsFields<S extends ParamsKernelSpec> = S['bindings']['params'] extends UniformSpec<infer F> ? F : never;
/** Names of a kernel's bindings other than `params`. */
export type BufferNames<S extends KernelSpec> = Exclude<Extract<keyof S['bindings'], string>, 'params'>;

class KernelCache {
  private readonly modules = new Map<string, GPUShaderModule>();
  private readonly layouts = new Map<string, GPUBindGroupLayout>();
  private readonly pipelines = new Map<string, { pipeline: GPUComputePipeline; layout: GPUBindGroupLayout }>();

  constructor(private readonly device: GPUDevice) {}

  kernel<B extends string>(library: ShaderLibrary, spec: KernelSpec<B>): Kernel<B> {
    const code = composeShader(spec.file, library);
    const kinds = Object.values<BindingSpec>(spec.bindings).map((b) => b.kind);
    const key = `${spec.entry}\n${kinds.join(',')}\n${code}`;
    let hit = this.pipelines.get(key);
    if (!hit) {
      const layout = this.layout(kinds);
      const pipeline = this.device.createComputePipeline({
        label: `${spec.file}:${spec.entry}`,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [layout] }),
        compute: { module: this.module(spec.file, code), entryPoint: spec.entry },
      });
      hit = { pipeline, layout };
      this.pipelines.set(key, hit);
    }
    return { spec, ...hit };
  }

  private module(file: string, code: string): GPUShaderModule {
    let m = this.modules.get(code);
    if (!m) {
      m = this.device.createShaderModule({ label: file, code });
      this.modules.set(code, m);
    }
    return m;
  }

  private layout(kinds: BindingKind[]): GPUBindGroupLayout {
    const key = kinds.join(',');
    let l = this.layouts.get(key);
    if (!l) {
      l = this.device.createBindGroupLayout({
        label: `bindings ${key}`,
        entries: kinds.map((kind, binding) => ({
          binding,
          visibility: ShaderStage.COMPUTE,
          buffer: { type: kind === 'uniform' ? ('uniform' as const) : kind === 'read' ? ('read-only-storage' as const) : ('storage' as const) },
        })),
      });
      this.layouts.set(key, l);
    }
    return l;
  }
}

const caches = new WeakMap<GPUDevice, KernelCache>();

/** The kernel of `spec` on this device, compiled on first use and cached with the device. */
export function getKernel<B extends string>(device: GPUDevice, library: ShaderLibrary, spec: KernelSpec<B>): Kernel<B> {
  let cache = caches.get(device);
  if (!cache) {
    cache = new KernelCache(device);
    caches.set(device, cache);
  }
  return cache.kernel(library, spec);
}

/** A bind group of `kernel` with each binding's buffer given by its WGSL name. */
export function bindKernel<B extends string>(device: GPUDevice, kernel: Kernel<B>, resources: Readonly<Record<B, BindingResource>>, label?: string): GPUBindGroup {
  const names = Object.keys(kernel.spec.bindings) as B[];
  for (const name of Object.keys(resources)) {
    if (!names.includes(name as B)) throw new Error(`${kernel.spec.file}:${kernel.spec.entry} has no binding '${name}'`);
  }
  return device.createBindGroup({
    label: label ?? `${kernel.spec.file}:${kernel.spec.entry}`,
    layout: kernel.layout,
    entries: names.map((name, binding) => {
      const r: BindingResource | undefined = resources[name];
      if (r === undefined) throw new Error(`${kernel.spec.file}:${kernel.spec.entry}: binding '${name}' was not given`);
      const resource: GPUBufferBinding = 'buffer' in r ? { buffer: r.buffer, size: r.size } : { buffer: r };
      return { binding, resource };
    }),
  });
}
