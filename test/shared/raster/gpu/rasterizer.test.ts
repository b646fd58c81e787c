// Parity of the WGSL rasterizer with the CPU reference (docs/DESIGN.md section 3) on seeded random
// scenes: projection, forward image and coverage, backward gradients; plus batching, determinism,
// capacity growth and the empty scene. Forward pixels may differ by more than 1e-3 only where a
// Gaussian sits on the 1/255 or 1e-4 threshold (float32 vs float64 decide differently there);
// every pixel undecidablePixels leaves decidable agrees to 1e-5.
import { afterAll, describe, expect, it } from 'vitest';
import { gpuDevice } from '../../../helpers/gpu';
import { loadShaderLibrary } from '../../../helpers/shaders';
import { GpuRasterizer, rasterizeForwardGpu } from '../../../../src/shared/raster/gpu';
import { depthOrder, projectForward, rasterizeBackward, rasterizeForward, undecidablePixels } from '../../../../src/shared/raster/cpu';
import { mulberry32 } from '../../../../src/shared/math/random';
import { emptySplats, type Splats } from '../../../../src/shared/scene/splats';
import type { Camera } from '../../../../src/shared/raster/types';
import { maxAbsDiff, onThreshold, randomScene, relativeError, testCameras } from './scenes';
import { skipWithout } from '../../../helpers/optional';

const FORWARD_TOL = 1e-3;
/** Pixels undecidablePixels leaves decidable agree to this (parity.test.ts has the full matrix). */
const PARITY_TOL = 1e-5;
/** Relative gradient error accepted per parameter: measured at most 6.2e-6 on these scenes. */
const GRAD_TOL = 3e-5;

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('GpuRasterizer', () => {
  const device = gpuDevice as GPUDevice;
  const raster = GpuRasterizer.create(device, loadShaderLibrary());
  afterAll(() => raster.destroy());

  /** Max abs difference over pixels that are not on a compositing threshold; counts excused pixels. */
  function compareForward(s: Splats, cam: Camera, gpu: { rgb: Float32Array; alpha: Float32Array }) {
    const cpu = rasterizeForward(s, cam);
    const proj = projectForward(s, cam);
    const order = depthOrder(proj.depths, (i) => proj.radii[i * 2] > 0, s.count);
    const mask = undecidablePixels(s, cam).undecidable;
    let worst = 0;
    let excused = 0;
    let decided = 0;
    for (let p = 0; p < cam.width * cam.height; p++) {
      let d = Math.abs(gpu.alpha[p] - cpu.alpha[p]);
      for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(gpu.rgb[p * 3 + k] - cpu.rgb[p * 3 + k]));
      if (!mask[p]) decided = Math.max(decided, d);
      if (d > FORWARD_TOL && onThreshold(proj, order, s.opacities, p % cam.width, Math.floor(p / cam.width))) {
        excused++;
        expect(d).toBeLessThan(0.02);
      } else {
        worst = Math.max(worst, d);
      }
    }
    return { worst, excused, decided };
  }

  const cases: Array<[number, number, number]> = [
    [100, 64, 1],
    [500, 64, 2],
    [2000, 64, 3],
    [300, 256, 4],
  ];
  for (const [n, size, seed] of cases) {
    it(`forward matches the CPU reference: ${n} Gaussians, ${size}px, three cameras`, async () => {
      const s = randomScene(n, seed);
      for (const cam of Object.values(testCameras(size, size))) {
        const { worst, excused, decided } = compareForward(s, cam, await raster.forward(s, cam));
        expect(worst).toBeLessThanOrEqual(FORWARD_TOL);
        expect(decided).toBeLessThanOrEqual(PARITY_TOL);
        expect(excused).toBeLessThanOrEqual(2);
      }
    });
  }

  it('projection matches: radii exactly, means, conics and depths to float precision', async () => {
    const s = randomScene(1000, 11);
    for (const [name, cam] of Object.entries(testCameras(64, 64))) {
      const g = await raster.project(s, cam);
      const c = projectForward(s, cam);
      expect(Array.from(g.radii)).toEqual(Array.from(c.radii));
      const visible = (i: number) => c.radii[i * 2] > 0;
      for (let i = 0; i < s.count; i++) {
        if (!visible(i)) continue;
        for (let k = 0; k < 2; k++) expect(Math.abs(g.means2d[i * 2 + k] - c.means2d[i * 2 + k])).toBeLessThan(1e-5 * (64 + Math.abs(c.means2d[i * 2 + k])));
        expect(Math.abs(g.depths[i] - c.depths[i])).toBeLessThan(4e-6 * c.depths[i]);
        const scale = Math.max(Math.abs(c.conics[i * 3]), Math.abs(c.conics[i * 3 + 2]));
        for (let k = 0; k < 3; k++) expect(Math.abs(g.conics[i * 3 + k] - c.conics[i * 3 + k])).toBeLessThan(1e-4 * scale);
      }
      // The close camera culls Gaussians behind the near plane and keeps some just in front.
      if (name === 'close') {
        expect(c.radii.some((r) => r === 0)).toBe(true);
        expect(c.depths.some((z, i) => visible(i) && z < 0.3)).toBe(true);
      }
    }
  });

  const gradCases: Array<[number, number, number]> = [
    [100, 64, 21],
    [1000, 64, 22],
  ];
  for (const [n, size, seed] of gradCases) {
    it(`backward matches the CPU reference: ${n} Gaussians, ${size}px, with v_alpha`, async () => {
      const s = randomScene(n, seed);
      for (const cam of Object.values(testCameras(size, size))) {
        const rng = mulberry32(seed + 100);
        const v_rgb = Float32Array.from({ length: cam.width * cam.height * 3 }, () => rng.normal());
        const v_alpha = Float32Array.from({ length: cam.width * cam.height }, () => rng.normal());
        const g = await raster.backward(s, cam, { v_rgb, v_alpha });
        const c = rasterizeBackward(s, cam, { v_rgb, v_alpha });
        for (const key of ['v_means', 'v_scales', 'v_quats', 'v_colors', 'v_opacities'] as const) {
          expect(relativeError(g[key], c[key]), key).toBeLessThan(GRAD_TOL);
        }
      }
    });
  }

  it('backward without v_alpha equals the CPU reference and ignores coverage', async () => {
    const s = randomScene(200, 31);
    const cam = testCameras(48, 48).orbit;
    const rng = mulberry32(5);
    const v_rgb = Float32Array.from({ length: 48 * 48 * 3 }, () => rng.normal());
    const g = await raster.backward(s, cam, { v_rgb });
    const c = rasterizeBackward(s, cam, { v_rgb });
    for (const key of ['v_means', 'v_scales', 'v_quats', 'v_colors', 'v_opacities'] as const) {
      expect(relativeError(g[key], c[key]), key).toBeLessThan(GRAD_TOL);
    }
  });

  it('forwardBatch renders each view exactly as forward does', async () => {
    const s = randomScene(300, 41);
    const cams = [...Object.values(testCameras(64, 64)), ...Object.values(testCameras(32, 32))];
    const batch = await raster.forwardBatch(s, cams);
    expect(batch).toHaveLength(cams.length);
    for (let v = 0; v < cams.length; v++) {
      const single = await raster.forward(s, cams[v]);
      expect(batch[v].width).toBe(cams[v].width);
      expect(batch[v].height).toBe(cams[v].height);
      expect(maxAbsDiff(batch[v].rgb, single.rgb)).toBe(0);
      expect(maxAbsDiff(batch[v].alpha, single.alpha)).toBe(0);
    }
  });

  it('is deterministic: repeated forward and backward calls are bit-identical', async () => {
    const s = randomScene(500, 51);
    const cam = testCameras(64, 64).close;
    const a = await raster.forward(s, cam);
    const b = await raster.forward(s, cam);
    expect(Buffer.from(a.rgb.buffer).equals(Buffer.from(b.rgb.buffer))).toBe(true);
    const v_rgb = new Float32Array(64 * 64 * 3).fill(0.5);
    const ga = await raster.backward(s, cam, { v_rgb });
    const gb = await raster.backward(s, cam, { v_rgb });
    expect(Array.from(ga.v_means)).toEqual(Array.from(gb.v_means));
    expect(Array.from(ga.v_quats)).toEqual(Array.from(gb.v_quats));
  });

  it('grows the tile-list capacity when a view needs more intersections, with no change to the image', async () => {
    const fresh = GpuRasterizer.create(device, loadShaderLibrary());
    try {
      // 100 large Gaussians each cover most of the 256 tiles: more ids than the initial 16384.
      const s = randomScene(100, 61, [0.6, 0.9]);
      const cam = testCameras(256, 256).orbit;
      const before = fresh.idCapacity;
      const out = await fresh.forward(s, cam);
      expect(fresh.idCapacity).toBeGreaterThan(before);
      const { worst } = compareForward(s, cam, out);
      expect(worst).toBeLessThanOrEqual(FORWARD_TOL);
    } finally {
      fresh.destroy();
    }
  });

  it('renders an empty scene as white with zero coverage, and the one-shot function agrees', async () => {
    const cam = testCameras(40, 24).orbit;
    const out = await rasterizeForwardGpu(device, loadShaderLibrary(), emptySplats(0), cam);
    expect(out.rgb.every((v) => v === 1)).toBe(true);
    expect(out.alpha.every((v) => v === 0)).toBe(true);
    const g = await raster.backward(emptySplats(0), cam, { v_rgb: new Float32Array(40 * 24 * 3) });
    expect(g.v_means).toHaveLength(0);
  });
});
