// Acquires the main process's WebGPU device through Dawn, in the order of docs/DESIGN.md section 1:
// a hardware adapter, else SwiftShader through a Vulkan ICD file, else the CPU reference.
// Output: the device (or null) and a GpuStatus saying which path is live and how to get a faster
// one. Invariant: called once per process; later callers share the same promise.
import { existsSync } from 'node:fs';
import { create, globals } from 'webgpu';
import type { GpuStatus } from '../../shared/api/schemas';
import { requestComputeDevice } from '../../shared/gpu/device';

/** ICD files that ship SwiftShader: Debian's chromium package, or one named by the user. */
export const SWIFTSHADER_ICDS = ['/usr/lib/chromium/vk_swiftshader_icd.json'];

export interface GpuContext {
  device: GPUDevice | null;
  status: GpuStatus;
}

let acquired: Promise<GpuContext> | undefined;
// Dawn's instance must outlive every adapter and device made from it: if the object returned by
// create() is garbage-collected, Dawn frees the instance and later event processing crashes.
const instances: GPU[] = [];

export function acquireGpu(options: { forceCpu?: boolean } = {}): Promise<GpuContext> {
  if (options.forceCpu) return Promise.resolve(cpuContext('CPU mode was requested (--device cpu).'));
  acquired ??= acquire();
  return acquired;
}

async function acquire(): Promise<GpuContext> {
  // Dawn prints Vulkan loader warnings when XDG_RUNTIME_DIR is unset; they are harmless noise.
  process.env.XDG_RUNTIME_DIR ??= '/tmp';
  Object.assign(globalThis, globals);
  const userIcd = process.env.VK_ICD_FILENAMES;
  const hardware = await tryAdapter();
  if (hardware && !hardware.info.isFallbackAdapter && hardware.info.architecture !== 'swiftshader') {
    return deviceContext(hardware, 'hardware');
  }
  if (hardware) return deviceContext(hardware, 'swiftshader');
  const icd = userIcd ? undefined : SWIFTSHADER_ICDS.find((file) => existsSync(file));
  if (icd) {
    process.env.VK_ICD_FILENAMES = icd;
    const soft = await tryAdapter();
    if (soft) return deviceContext(soft, 'swiftshader');
  }
  return cpuContext(
    'No WebGPU adapter found: using the CPU reference rasterizer (slow). ' +
      'Install a GPU driver with Vulkan, or `apt-get install chromium libvulkan1` for SwiftShader.',
  );
}

async function tryAdapter(): Promise<GPUAdapter | null> {
  try {
    const gpu = create([]);
    instances.push(gpu);
    return await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    return null;
  }
}

async function deviceContext(adapter: GPUAdapter, path: 'hardware' | 'swiftshader'): Promise<GpuContext> {
  const info = adapter.info;
  const device = await requestComputeDevice(adapter);
  const name = `${info.vendor || 'unknown vendor'} ${info.architecture || info.device || ''}`.trim();
  const summary =
    path === 'hardware'
      ? `hardware adapter (${name}).`
      : `SwiftShader software Vulkan (${name}); a hardware GPU driver with Vulkan would be much faster.`;
  return {
    device,
    status: { path, vendor: info.vendor, architecture: info.architecture, description: info.description, summary },
  };
}

function cpuContext(summary: string): GpuContext {
  return { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: 'CPU reference', summary } };
}
