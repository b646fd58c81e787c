// Test helper: a WebGPU device from Dawn, or null when no adapter exists (GPU tests then skip).
// Points the Vulkan loader at Debian's SwiftShader ICD when no ICD was chosen, as main does.
import { existsSync } from 'node:fs';
import { create, globals } from 'webgpu';

const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
let cached: Promise<GPUDevice | null> | undefined;
// Dawn's instance must outlive every device made from it: if the GPU object from create() is
// garbage-collected, later event processing touches a freed instance and the process crashes.
const instances: GPU[] = [];

export function testDevice(): Promise<GPUDevice | null> {
  if (!cached) cached = acquire();
  return cached;
}

async function acquire(): Promise<GPUDevice | null> {
  if (!process.env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER_ICD)) process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  // As in main: without it the Vulkan loader prints a harmless error line per instance.
  process.env.XDG_RUNTIME_DIR ??= '/tmp';
  Object.assign(globalThis, globals);
  const gpu = create([]);
  instances.push(gpu);
  const adapter = await gpu.requestAdapter();
  if (!adapter) return null;
  return adapter.requestDevice({
    requiredLimits: {
      maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
    },
  });
}

/** Top-level await friendly: the device if present, for `describe.skipIf(!device)`. */
export const gpuDevice = await testDevice();
