// The resident GPU scene (src/shared/raster/gpu/resident.ts): one rasterizer keeps the scene on the
// device across calls and uploads only what changed; its images and gradients equal today's path
// (a fresh rasterizer per call, which uploads the whole scene every time), bit for bit, on the
// small-scene and the radix paths, and its upload counts are asserted: one full upload, nothing
// for a repeated call, a delta of exactly the edited rows after one edit (in place or as a copy).
import { afterAll, describe, expect, it } from 'vitest';
import { gpuDevice } from '../../../helpers/gpu';
import { loadShaderLibrary } from '../../../helpers/shaders';
import { GpuRasterizer } from '../../../../src/shared/raster/gpu';
import { SPLAT } from '../../../../src/shared/raster/gpu/layouts';
import { mulberry32 } from '../../../../src/shared/math/random';
import type { Splats } from '../../../../src/shared/scene/splats';
import type { Camera, RenderOutput } from '../../../../src/shared/raster/types';
import { randomScene, testCameras } from './scenes';
import { withRandomSh } from '../cpu/random-scene';
import { skipWithout } from '../../../helpers/optional';

const library = gpuDevice ? loadShaderLibrary() : null;
const made: GpuRasterizer[] = [];
afterAll(() => made.forEach((r) => r.destroy()));

function rasterizer(radix = false): GpuRasterizer {
  const r = GpuRasterizer.create(gpuDevice as GPUDevice, library as NonNullable<typeof library>, radix ? { radixMinGaussians: 0 } : {});
  made.push(r);
  return r;
}

/** Today's path: a rasterizer that has never seen the scene (the whole scene uploaded). */
async function fresh(s: Splats, cams: Camera[], radix: boolean): Promise<RenderOutput[]> {
  const r = GpuRasterizer.create(gpuDevice as GPUDevice, library as NonNullable<typeof library>, radix ? { radixMinGaussians: 0 } : {});
  try {
    const out = await r.forwardBatch(s, cams);
    expect(r.uploads.full).toBe(1);
    return out;
  } finally {
    r.destroy();
  }
}

function expectSame(a: RenderOutput[], b: RenderOutput[]): void {
  expect(a.length).toBe(b.length);
  a.forEach((x, v) => {
    expect(Buffer.from(x.rgb.buffer, x.rgb.byteOffset, x.rgb.byteLength).equals(Buffer.from(b[v].rgb.buffer, b[v].rgb.byteOffset, b[v].rgb.byteLength))).toBe(true);
    expect(Buffer.from(x.alpha.buffer, x.alpha.byteOffset, x.alpha.byteLength).equals(Buffer.from(b[v].alpha.buffer, b[v].alpha.byteOffset, b[v].alpha.byteLength))).toBe(true);
  });
}

function copyOf(s: Splats): Splats {
  return { ...s, means: s.means.slice(), scales: s.scales.slice(), quats: s.quats.slice(), colors: s.colors.slice(), opacities: s.opacities.slice(), ...(s.sh ? { sh: { degree: s.sh.degree, rest: s.sh.rest.slice() } } : {}) };
}

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('resident GPU scene', () => {
  const cams = Object.values(testCameras(40, 32));
  const stride = 15 * 3; // SH degree 3: 15 coefficients x 3 channels per Gaussian

  for (const radix of [false, true]) {
    it(`${radix ? 'radix' : 'small-scene'} path: the same images as today's path, one full upload, then deltas of the edited rows only`, async () => {
      const scene = withRandomSh(mulberry32(8), randomScene(600, 31), 3);
      const r = rasterizer(radix);
      expectSame(await r.forwardBatch(scene, cams), await fresh(scene, cams, radix));
      expect(r.uploads).toMatchObject({ full: 1, delta: 0, unchanged: 0 });

      // The same scene again: nothing is written.
      const bytesAfterFirst = r.uploads.bytes;
      expectSame(await r.forwardBatch(scene, cams), await fresh(scene, cams, radix));
      expect(r.uploads).toMatchObject({ full: 1, delta: 0, unchanged: 1 });
      expect(r.uploads.bytes).toBe(bytesAfterFirst);

      // One edit (a new Splats, as an episode's step makes): one row of splat data, no SH.
      const moved = copyOf(scene);
      moved.means[17 * 3] += 0.2;
      moved.opacities[17] = 0.9;
      expectSame(await r.forwardBatch(moved, cams), await fresh(moved, cams, radix));
      expect(r.uploads).toMatchObject({ full: 1, delta: 1, deltaRows: 1 });
      expect(r.uploads.bytes - bytesAfterFirst).toBe(SPLAT.bytes);

      // An edit made in place on the same arrays, SH bands only: seen, and only that row's bands written.
      const before = r.uploads.bytes;
      (moved.sh as { rest: Float32Array | Float64Array }).rest[400 * stride + 5] += 0.5;
      expectSame(await r.forwardBatch(moved, cams), await fresh(moved, cams, radix));
      expect(r.uploads).toMatchObject({ full: 1, delta: 2, deltaRows: 2 });
      expect(r.uploads.bytes - before).toBe(stride * 4);
    });
  }

  it('a count change or a switch to another scene uploads everything; the gradients follow the resident scene', async () => {
    const base = withRandomSh(mulberry32(9), randomScene(300, 32), 3);
    const r = rasterizer();
    await r.forwardBatch(base, cams);
    const other = randomScene(200, 33);
    expectSame(await r.forwardBatch(other, cams), await fresh(other, cams, false));
    expect(r.uploads).toMatchObject({ full: 2, delta: 0 });
    // Back to the first scene and one Gaussian edited: the backward pass sees the edit.
    await r.forwardBatch(base, cams);
    const edited = copyOf(base);
    edited.scales[5 * 3 + 1] *= 1.5;
    const px = cams[0].width * cams[0].height;
    const grads = { v_rgb: Float32Array.from({ length: px * 3 }, (_, i) => Math.sin(i)) };
    const resident = await r.backward(edited, cams[0], grads);
    expect(r.uploads.delta).toBe(1);
    const ref = rasterizer();
    const direct = await ref.backward(edited, cams[0], grads);
    expect(Array.from(resident.v_means)).toEqual(Array.from(direct.v_means));
    expect(Array.from(resident.v_scales)).toEqual(Array.from(direct.v_scales));
    expect(Array.from(resident.v_sh_rest ?? [])).toEqual(Array.from(direct.v_sh_rest ?? []));
  });
});
