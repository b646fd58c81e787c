// The CPU grading backend's fast path against the references: the pipelined render + measure
// equals render then measure, SSIM equals metrics/ssim.ts to 1e-12, LPIPS (wasm workers) equals
// lpips.ts to 1e-5 relative (random AlexNet-shaped weights, so it runs without the weights
// folder); the grade's scores (tile-rasterizer renders) equal the reference pipeline's
// (rasterizeForward, ssim.ts, lpips.ts) to 1e-6 on a seeded scene; and graderDevice picks the
// CPU path everywhere but on a hardware adapter.
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend, renderImage } from '../../../src/main/grader/cpu';
import { Grader, graderDevice } from '../../../src/main/grader/grader';
import type { GpuContext } from '../../../src/main/gpu/device';
import { loadTask, type LoadedTask } from '../../../src/main/tasks/load';
import { TEST_TASK_IDS, type TestTask } from '../../helpers/test-task';
import { packRecords } from '../../../src/shared/scene/records';
import { lpips } from '../../../src/shared/metrics/lpips';
import { ssim } from '../../../src/shared/metrics/ssim';
import { randomLpipsWeights } from '../../shared/metrics/wasm/random-weights';
import { gpuDevice } from '../../helpers/gpu';
import { rasterizeForward } from '../../../src/shared/raster/cpu';
import { mse } from '../../../src/shared/metrics/psnr';
import { iou, maskFromCoverage } from '../../../src/shared/metrics/mask';
import { Random } from '../../../src/shared/math/random';
import { cappedPsnr } from '../../../src/main/grader/cpu';
import { randomSplats } from '../../shared/raster/cpu/random-scene';
import { fixtureTask } from '../tasks/fixture';
import { skipWithout } from '../../helpers/optional';

const weights = randomLpipsWeights(5);
let built: TestTask;
let task: LoadedTask;
beforeAll(async () => {
  ({ task: built } = await fixtureTask());
  task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir });
});

describe('CpuBackend', () => {
  it('pipelined render + measure equals render then measure, and matches the references', async () => {
    const backend = new CpuBackend(weights, { lpipsWorkers: 2 });
    try {
      const splats = packRecords(built.init);
      const views = task.heldout;
      const piped = await backend.renderAndMeasure(splats, views, true);
      const renders = await backend.render(splats, views.map((v) => v.camera));
      const plain = await backend.measure(renders, views, true);
      expect(piped.scores).toEqual(plain);
      expect(piped.renders.map((r) => r.rgb)).toEqual(renders.map((r) => r.rgb));
      plain.forEach((s, i) => {
        const img = renderImage(renders[i]);
        expect(Math.abs(s.ssim - ssim(img, views[i].photo))).toBeLessThan(1e-12);
        if (i < 2) {
          const ref = lpips(img, views[i].photo, weights);
          expect(Math.abs((s.lpips as number) - ref) / ref).toBeLessThan(1e-5);
        }
      });
      const noLpips = await backend.renderAndMeasure(splats, views.slice(0, 2), false);
      expect(noLpips.scores.every((s) => s.lpips === undefined)).toBe(true);
    } finally {
      backend.destroy();
    }
  });
});

describe('CpuBackend scores against the reference pipeline', () => {
  it('equal rasterizeForward + ssim.ts + lpips.ts to 1e-6 on a seeded scene', async () => {
    const views = task.heldout.slice(0, 3);
    const splats = randomSplats(new Random(40), 60, views[0].camera, { scaleRange: [0.05, 0.3], opacityRange: [0.3, 1] });
    const backend = new CpuBackend(weights, { lpipsWorkers: 1 });
    try {
      const { scores } = await backend.renderAndMeasure(splats, views, true);
      scores.forEach((s, i) => {
        const r = rasterizeForward(splats, views[i].camera);
        const img = renderImage(r);
        const photo = views[i].photo;
        expect(Math.abs(s.psnr - cappedPsnr(mse(img, photo)))).toBeLessThan(1e-6);
        expect(Math.abs(s.ssim - ssim(img, photo))).toBeLessThan(1e-6);
        expect(Math.abs(s.iou - iou(maskFromCoverage(r.alpha, 0.5), maskFromCoverage(views[i].mask, 0.5)))).toBeLessThan(1e-6);
        expect(Math.abs((s.lpips as number) - lpips(img, photo, weights))).toBeLessThan(1e-6);
        // A scene that is neither empty nor the photo, so every metric is away from its bound.
        expect(s.ssim).toBeLessThan(0.99);
        expect(s.iou).toBeGreaterThan(0);
      });
    } finally {
      backend.destroy();
    }
  });
});

describe('graderDevice', () => {
  const context = (path: 'hardware' | 'swiftshader' | 'cpu', device: GPUDevice | null): GpuContext => ({
    device,
    status: { path, vendor: '', architecture: '', description: '', summary: '' },
  });

  it('prefers the CPU path unless the adapter is hardware', () => {
    const fake = {} as GPUDevice;
    expect(graderDevice(context('hardware', fake))).toEqual({ device: fake, preferCpu: false });
    expect(graderDevice(context('swiftshader', fake))).toEqual({ device: fake, preferCpu: true });
    expect(graderDevice(context('cpu', null))).toEqual({ device: null, preferCpu: true });
  });

  it.skipIf(skipWithout('gpu', gpuDevice !== null))('gives a CPU grader on a device when preferCpu is set', async () => {
    const g = await Grader.create({ device: gpuDevice, preferCpu: true, lpipsDir: null });
    expect(g.kind).toBe('cpu');
    g.destroy();
  });
});
