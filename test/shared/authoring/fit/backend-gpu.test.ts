// The GPU fit backend (GpuRasterizer) against the CPU fit backend on the same scene and
// gradients, and a short fit on the GPU that lowers the loss. Skips without a WebGPU adapter.
import { afterAll, describe, expect, it } from 'vitest';
import { gpuDevice } from '../../../helpers/gpu';
import { loadShaderLibrary } from '../../../helpers/shaders';
import { cpuFitBackend } from '../../../../src/shared/authoring/fit/backend';
import { gpuFitBackend } from '../../../../src/shared/authoring/fit/backend-gpu';
import { fitGaussians } from '../../../../src/shared/authoring/fit/fit';
import { LossTarget } from '../../../../src/shared/authoring/fit/loss';
import { GpuRasterizer } from '../../../../src/shared/raster/gpu';
import { packSplats } from '../../../../src/shared/scene/gaussian';
import { gaussian, syntheticViews } from './fit-helpers';
import { skipWithout } from '../../../helpers/optional';

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('gpuFitBackend', () => {
  const rasterizer = gpuDevice ? GpuRasterizer.create(gpuDevice, loadShaderLibrary()) : null;
  afterAll(() => rasterizer?.destroy());
  const views = syntheticViews(32);

  it('matches the CPU backend: render and gradients of the fit loss', async () => {
    const scene = packSplats([gaussian(0, [0.05, 0, -0.2], 0.3, [0.6, 0.3, 0.3], 0.7), gaussian(1, [0, 0.1, 0.3], 0.2, [0.3, 0.3, 0.6], 0.6)], 'f32');
    const target = new LossTarget(views[1].photo, views[1].mask);
    const cpu = cpuFitBackend();
    const gpu = gpuFitBackend(rasterizer as GpuRasterizer);
    const rc = await cpu.forward(scene, views[1].camera);
    const rg = await gpu.forward(scene, views[1].camera);
    for (let i = 0; i < rc.rgb.length; i++) expect(Math.abs(rc.rgb[i] - rg.rgb[i])).toBeLessThan(1e-4);
    target.evaluate(rc.rgb, rc.alpha, true);
    const grads = { v_rgb: Float64Array.from(target.grads.v_rgb), v_alpha: Float64Array.from(target.grads.v_alpha) };
    const gc = await cpu.backward(grads);
    const gg = await gpu.backward(grads);
    for (const key of ['v_means', 'v_scales', 'v_colors', 'v_opacities'] as const) {
      const scale = Math.max(...Array.from(gc[key], Math.abs));
      expect(scale).toBeGreaterThan(0);
      for (let i = 0; i < gc[key].length; i++) expect(Math.abs(gc[key][i] - gg[key][i])).toBeLessThan(1e-3 * scale);
    }
  });

  it('lowers the loss in a short fit', async () => {
    const r = await fitGaussians({ views, maxGaussians: 40, steps: 32, seed: 7 }, gpuFitBackend(rasterizer as GpuRasterizer));
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(r.losses.slice(-8))).toBeLessThan(0.75 * mean(r.losses.slice(0, 8)));
  });
});
