// The GPU's large-scene path (radix-sorted depth keys, (tile, Gaussian) pairs radix-sorted by
// tile) against its small-scene path and the CPU reference: the same tile lists and the same
// image bit for bit as the O(N^2) path; view-dependent colour (SH degree 1-3) and the antialiased
// mode against the CPU dense reference on random scenes (decidable pixels to 1e-5); capacity
// growth; SH gradients against the CPU reference. Small sizes: SwiftShader is slow.
import { afterAll, describe, expect, it } from 'vitest';
import { gpuDevice } from '../../../helpers/gpu';
import { loadShaderLibrary } from '../../../helpers/shaders';
import { GpuRasterizer } from '../../../../src/shared/raster/gpu';
import { depthOrder, projectForward, rasterizeBackward, rasterizeForwardDense, undecidablePixels } from '../../../../src/shared/raster/cpu';
import { mulberry32 } from '../../../../src/shared/math/random';
import type { Splats } from '../../../../src/shared/scene/splats';
import type { Camera, RasterOptions } from '../../../../src/shared/raster/types';
import { maxAbsDiff, onThreshold, randomScene, relativeError, testCameras } from './scenes';
import { withRandomSh } from '../cpu/random-scene';
import { skipWithout } from '../../../helpers/optional';

/** GPU float32 against the CPU float64 reference, as in rasterizer.test.ts. */
const FORWARD_TOL = 1e-3;
/** Pixels undecidablePixels leaves decidable agree to this (parity.test.ts has the full matrix). */
const PARITY_TOL = 1e-5;
/** Relative gradient error accepted per parameter: measured at most 6.2e-6 on these scenes. */
const GRAD_TOL = 3e-5;

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('GpuRasterizer, radix path', () => {
  const device = gpuDevice as GPUDevice;
  const library = loadShaderLibrary();
  const radix = GpuRasterizer.create(device, library, { radixMinGaussians: 0 });
  const small = GpuRasterizer.create(device, library, { radixMinGaussians: Infinity });
  afterAll(() => {
    radix.destroy();
    small.destroy();
  });

  function compare(s: Splats, cam: Camera, gpu: { rgb: Float32Array; alpha: Float32Array }, opts: RasterOptions = {}) {
    const cpu = rasterizeForwardDense(s, cam, opts);
    const proj = projectForward(s, cam, opts);
    const order = depthOrder(proj.depths, (i) => proj.radii[i * 2] > 0, s.count);
    const opac = proj.opacities ?? s.opacities;
    const mask = undecidablePixels(s, cam, opts).undecidable;
    let worst = 0;
    let excused = 0;
    let decided = 0;
    for (let p = 0; p < cam.width * cam.height; p++) {
      let d = Math.abs(gpu.alpha[p] - cpu.alpha[p]);
      for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(gpu.rgb[p * 3 + k] - cpu.rgb[p * 3 + k]));
      if (!mask[p]) decided = Math.max(decided, d);
      if (d > FORWARD_TOL && onThreshold(proj, order, opac, p % cam.width, Math.floor(p / cam.width))) excused++;
      else worst = Math.max(worst, d);
    }
    return { worst, excused, decided };
  }

  it('builds the same tile lists and the same image as the small-scene path', async () => {
    for (const [n, seed] of [[700, 1], [2500, 2]] as const) {
      const s = randomScene(n, seed);
      for (const cam of Object.values(testCameras(64, 64))) {
        const a = await radix.tileLists(s, cam);
        const b = await small.tileLists(s, cam);
        // Empty tiles may point anywhere (the radix path leaves them at [0, 0)); compare the lists.
        const lists = (l: typeof a) => Array.from({ length: l.tilesX * l.tilesY }, (_, t) => Array.from(l.ids.subarray(l.ranges[t * 2], l.ranges[t * 2 + 1])));
        expect(lists(a)).toEqual(lists(b));
        expect(Array.from(a.ids)).toEqual(Array.from(b.ids));
        expect(a.ids.length).toBeGreaterThan(n);
        const ia = await radix.forward(s, cam);
        const ib = await small.forward(s, cam);
        expect(maxAbsDiff(ia.rgb, ib.rgb)).toBe(0);
        expect(maxAbsDiff(ia.alpha, ib.alpha)).toBe(0);
      }
    }
  });

  const shCases: Array<[string, 0 | 1 | 2 | 3, RasterOptions]> = [
    ['SH degree 1', 1, {}],
    ['SH degree 2', 2, {}],
    ['SH degree 3', 3, {}],
    ['SH degree 3, antialiased', 3, { antialiased: true }],
    ['flat, antialiased', 0, { antialiased: true }],
    ['SH degree 3 capped at band 0', 3, { shDegree: 0 }],
  ];
  for (const [name, degree, opts] of shCases) {
    it(`matches the CPU dense reference: ${name}, 1500 Gaussians, 48px`, async () => {
      const rng = mulberry32(degree * 10 + (opts.antialiased ? 1 : 0));
      const base = randomScene(1500, 70 + degree, [0.01, 0.15]);
      const s = degree === 0 ? base : withRandomSh(rng, base, degree, 0.4);
      for (const cam of Object.values(testCameras(48, 48))) {
        const { worst, excused, decided } = compare(s, cam, await radix.forward(s, cam, opts), opts);
        expect(worst).toBeLessThanOrEqual(FORWARD_TOL);
        expect(decided).toBeLessThanOrEqual(PARITY_TOL);
        expect(excused).toBeLessThanOrEqual(2);
      }
    });
  }

  it('grows its id capacity on the radix path without changing the image', async () => {
    const fresh = GpuRasterizer.create(device, library, { radixMinGaussians: 0 });
    try {
      const s = randomScene(100, 61, [0.6, 0.9]);
      const cam = testCameras(256, 256).orbit;
      const before = fresh.idCapacity;
      const out = await fresh.forward(s, cam);
      expect(fresh.idCapacity).toBeGreaterThan(before);
      expect(maxAbsDiff(out.rgb, (await small.forward(s, cam)).rgb)).toBe(0);
    } finally {
      fresh.destroy();
    }
  });

  it('gives SH gradients (bands, DC colours, the mean through the view direction) like the CPU reference', async () => {
    const s = withRandomSh(mulberry32(3), randomScene(300, 3, [0.05, 0.3]), 3, 0.4);
    const rng = mulberry32(4);
    for (const cam of Object.values(testCameras(40, 40))) {
      const v_rgb = Float32Array.from({ length: cam.width * cam.height * 3 }, () => rng.normal());
      const g = await radix.backward(s, cam, { v_rgb });
      const c = rasterizeBackward(s, cam, { v_rgb });
      for (const key of ['v_means', 'v_scales', 'v_quats', 'v_colors', 'v_opacities', 'v_sh_rest'] as const) {
        expect(relativeError(g[key] as Float64Array, c[key] as Float64Array), key).toBeLessThan(GRAD_TOL);
      }
    }
  });
});
