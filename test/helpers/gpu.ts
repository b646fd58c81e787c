// Test helper: the WebGPU device that main's acquireGpu makes (the one device setup of the lab),
// or null when there is none (GPU tests then skip). As before, tests point the Vulkan loader at
// Debian's SwiftShader ICD when no ICD was chosen, so every machine tests the same adapter and
// the loader prints no "no drivers" warning first.
import { existsSync } from 'node:fs';
import { acquireGpu, SWIFTSHADER_ICDS } from '../../src/main/gpu/device';

export async function testDevice(): Promise<GPUDevice | null> {
  const icd = SWIFTSHADER_ICDS.find((file) => existsSync(file));
  if (!process.env.VK_ICD_FILENAMES && icd) process.env.VK_ICD_FILENAMES = icd;
  return (await acquireGpu()).device;
}

/** Top-level await friendly: the device if present, for `describe.skipIf(!device)`. */
export const gpuDevice = await testDevice();
