// GPU ray caster for procedural objects: host code for shaders/raycast.wgsl (standard WebGPU API;
// the caller passes the device, Dawn in main and tests, navigator.gpu in the renderer).
// Inputs: device, ShaderLibrary, ProceduralObject, camera(s), options. Outputs: the same
// RaycastOutput as the CPU reference raycastObject (rgb [H, W, 3] on white, mask [H, W]).
// Invariant: one invocation per pixel evaluates exactly the CPU reference's samples in float32.
// The pipeline comes from the device's kernel cache (src/shared/gpu/kernel.ts).
import type { ShaderLibrary } from '../../gpu/compose';
import { RAYCAST_WORKGROUP } from '../../gpu/constants';
import { bindKernel, getKernel } from '../../gpu/kernel';
import type { Camera } from '../../raster/types';
import { prepareParts } from '../intersect';
import type { ProceduralObject } from '../primitives';
import { sampleCount, type RaycastOptions, type RaycastOutput } from '../raycast';
import { BufferUsage, MapMode } from '../../gpu/flags';
import { packParams, packParts, PIXEL_WORDS, RAYCAST_KERNEL, RAYCAST_PARAMS } from './layout';

/** Renders one view; see raycastObject for the image definition. */
export async function raycastObjectGpu(
  device: GPUDevice, library: ShaderLibrary, obj: ProceduralObject, camera: Camera, opts?: RaycastOptions,
): Promise<RaycastOutput> {
  const [out] = await raycastViewsGpu(device, library, obj, [camera], opts);
  return out;
}

/** Renders several views of one object in a single submission and a single readback. */
export async function raycastViewsGpu(
  device: GPUDevice, library: ShaderLibrary, obj: ProceduralObject, cameras: readonly Camera[], opts?: RaycastOptions,
): Promise<RaycastOutput[]> {
  const samples = sampleCount(opts);
  if (cameras.length === 0) return [];
  const kernel = getKernel(device, library, RAYCAST_KERNEL);
  const prepared = prepareParts(obj);
  const partData = packParts(prepared);
  const partBuffer = device.createBuffer({ label: 'raycast parts', size: partData.byteLength, usage: BufferUsage.STORAGE | BufferUsage.COPY_DST });
  device.queue.writeBuffer(partBuffer, 0, partData);

  const pixelBytes = cameras.map((c) => c.width * c.height * PIXEL_WORDS * 4);
  const offsets: number[] = [];
  let total = 0;
  for (const b of pixelBytes) {
    offsets.push(total);
    total += b;
  }
  const staging = device.createBuffer({ label: 'raycast readback', size: total, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const transient: GPUBuffer[] = [partBuffer, staging];
  const encoder = device.createCommandEncoder({ label: 'raycast' });
  cameras.forEach((camera, v) => {
    const params = device.createBuffer({ label: 'raycast params', size: RAYCAST_PARAMS.bytes, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
    device.queue.writeBuffer(params, 0, packParams(camera, samples, prepared.length));
    const pixels = device.createBuffer({ label: 'raycast pixels', size: pixelBytes[v], usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC });
    transient.push(params, pixels);
    const bindGroup = bindKernel(device, kernel, { params, parts: partBuffer, pixels }, 'raycast');
    const pass = encoder.beginComputePass({ label: 'raycast' });
    pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(Math.ceil(camera.width / RAYCAST_WORKGROUP), Math.ceil(camera.height / RAYCAST_WORKGROUP));
    pass.end();
    encoder.copyBufferToBuffer(pixels, 0, staging, offsets[v], pixelBytes[v]);
  });
  device.queue.submit([encoder.finish()]);
  try {
    await staging.mapAsync(MapMode.READ);
    const all = new Float32Array(staging.getMappedRange());
    return cameras.map((camera, v) => unpack(all.subarray(offsets[v] / 4, (offsets[v] + pixelBytes[v]) / 4), camera));
  } finally {
    staging.unmap();
    for (const b of transient) b.destroy();
  }
}

/** Splits [H * W, 4] (r, g, b, coverage) into the RaycastOutput layout. */
function unpack(px: Float32Array, camera: Camera): RaycastOutput {
  const n = camera.width * camera.height;
  const rgb = new Float32Array(n * 3);
  const mask = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    rgb[3 * i] = px[PIXEL_WORDS * i];
    rgb[3 * i + 1] = px[PIXEL_WORDS * i + 1];
    rgb[3 * i + 2] = px[PIXEL_WORDS * i + 2];
    mask[i] = px[PIXEL_WORDS * i + 3];
  }
  return { rgb: { width: camera.width, height: camera.height, data: rgb }, mask };
}
