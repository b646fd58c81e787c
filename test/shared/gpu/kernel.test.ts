// getKernel / bindKernel: one cache per device (a second request compiles nothing), stages with
// the same binding kinds share one bind group layout, and bindings are checked by name.
import { describe, expect, it } from 'vitest';
import { bindKernel, getKernel } from '../../../src/shared/gpu/kernel';
import { BufferUsage } from '../../../src/shared/gpu/flags';
import { RASTER_KERNELS } from '../../../src/shared/raster/gpu/layouts';
import { RAYCAST_KERNEL } from '../../../src/shared/authoring/gpu/layout';
import { gpuDevice } from '../../helpers/gpu';
import { loadShaderLibrary } from '../../helpers/shaders';
import { skipWithout } from '../../helpers/optional';

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('kernel cache', () => {
  const device = gpuDevice as GPUDevice;
  const library = loadShaderLibrary();

  it('returns the cached pipeline for the same device, shader text and entry point', () => {
    const a = getKernel(device, library, RASTER_KERNELS.tileCount);
    const b = getKernel(device, loadShaderLibrary(), RASTER_KERNELS.tileCount);
    expect(b.pipeline).toBe(a.pipeline);
    expect(getKernel(device, library, RASTER_KERNELS.tileFill).pipeline).not.toBe(a.pipeline);
  });

  it('shares one bind group layout between stages with the same binding kinds', () => {
    const count = getKernel(device, library, RASTER_KERNELS.tileCount);
    const fill = getKernel(device, library, RASTER_KERNELS.tileFill);
    expect(fill.layout).toBe(count.layout);
  });

  it('binds by name and names a missing or unknown binding', () => {
    const k = getKernel(device, library, RAYCAST_KERNEL);
    const buf = (usage: number): GPUBuffer => device.createBuffer({ size: 256, usage });
    const params = buf(BufferUsage.UNIFORM);
    const parts = buf(BufferUsage.STORAGE);
    const pixels = buf(BufferUsage.STORAGE);
    expect(bindKernel(device, k, { params, parts, pixels })).toBeTruthy();
    expect(() => bindKernel(device, k, { params, parts } as unknown as Parameters<typeof bindKernel<'params' | 'parts' | 'pixels'>>[2])).toThrow(/binding 'pixels' was not given/);
    expect(() => bindKernel(device, k, { params, parts, pixels, extra: pixels } as Parameters<typeof bindKernel<'params' | 'parts' | 'pixels'>>[2])).toThrow(/no binding 'extra'/);
    for (const b of [params, parts, pixels]) b.destroy();
  });
});
