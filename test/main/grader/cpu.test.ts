// The CPU grading backend's fast path against the references: the pipelined render + measure
// equals render then measure, SSIM equals metrics/ssim.ts to 1e-12, LPIPS (wasm workers) equals
// lpips.ts to 1e-5 relative (random AlexNet-shaped weights, so it runs without the weights
// folder); and graderDevice picks the CPU path everywhere but on a hardware adapter.
import { beforeAll, describe, expect, it } from 'vitest';
import { CpuBackend, renderImage } from '../../../src/main/grader/cpu';
import { Grader, graderDevice } from '../../../src/main/grader/grader';
import type { GpuContext } from '../../../src/main/gpu/device';
import { loadTask, type LoadedTask } from '../../../src/main/tasks/load';
import { TEST_TASK_IDS, type TestTask } from '../../helpers/test-task';
import { packRecords } from '../../../src/shared/env/scene';
import { lpips } from '../../../src/shared/metrics/lpips';
import { ssim } from '../../../src/shared/metrics/ssim';
import { randomLpipsWeights } from '../../shared/metrics/wasm/random-weights';
import { gpuDevice } from '../../helpers/gpu';
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
