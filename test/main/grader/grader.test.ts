// The hidden grader on the test task: the anchors map to exactly 0 and 100, missing LPIPS
// falls back to two terms, grades are deterministic, and the GPU path agrees with the CPU one.
import { beforeAll, describe, expect, it } from 'vitest';
import { Grader, meanMetrics } from '../../../src/main/grader/grader';
import { loadTask, type LoadedTask } from '../../../src/main/tasks/load';
import { TEST_TASK_IDS, type TestTask } from '../../helpers/test-task';
import { packRecords } from '../../../src/shared/scene/records';
import { emptySplats } from '../../../src/shared/scene/splats';
import { resolveLpipsDir } from '../../../src/main/lpips/weights';
import { gpuDevice } from '../../helpers/gpu';
import { fixtureTask } from '../tasks/fixture';
import { skipWithout } from '../../helpers/optional';

const haveLpips = resolveLpipsDir() !== null;
let built: TestTask;
let grader: Grader;
let task: LoadedTask;
beforeAll(async () => {
  ({ task: built, grader } = await fixtureTask());
  task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir });
});

describe('Grader (CPU)', () => {
  it('grades the empty scene to exactly 0 and the fit to exactly 100', async () => {
    expect(grader.kind).toBe('cpu');
    const empty = await grader.grade(task, emptySplats(0));
    expect(empty.score).toBe(0);
    expect(empty.normalized).toEqual({ psnr: 0, ssim: 0, lpips: grader.lpipsAvailable ? 0 : null });
    expect(empty.iou).toBe(0);
    expect(empty.reward).toBe(0);
    expect(empty.trainingReward).toBeCloseTo(1 / 3, 12);
    const fit = await grader.grade(task, packRecords(built.fit));
    expect(fit.score).toBe(100);
    expect(fit.reward).toBe(1);
    expect(fit.perView.map((v) => v.name)).toEqual(task.heldout.map((v) => v.name));
    expect(fit.lpipsMissing).toBe(!grader.lpipsAvailable);
  });

  it('scores the truth above the fit and the scrambled start below it, deterministically', async () => {
    const truth = await grader.grade(task, packRecords(built.truth));
    const scrambled = await grader.grade(task, packRecords(built.init));
    expect(truth.score).toBeGreaterThan(100);
    expect(truth.iou).toBe(1);
    expect(scrambled.score).toBeLessThan(60);
    const again = await grader.grade(task, packRecords(built.init));
    expect(again).toEqual(scrambled);
  });

  it('falls back to the mean of PSNR and SSIM when the LPIPS weights are missing', async () => {
    const noLpips = await Grader.create({ lpipsDir: '/nonexistent/lpips' });
    expect(noLpips.lpipsAvailable).toBe(false);
    expect(noLpips.lpipsProblem).toMatch(/LPIPS weights folder \/nonexistent\/lpips does not exist/);
    const g = await noLpips.grade(task, packRecords(built.init));
    expect(g.lpipsMissing).toBe(true);
    expect(g.lpips).toBeNull();
    expect(g.normalized.lpips).toBeNull();
    expect(g.score).toBeCloseTo((g.normalized.psnr + g.normalized.ssim) / 2, 12);
    expect((await noLpips.grade(task, packRecords(built.fit))).score).toBe(100);
  });

  it.skipIf(skipWithout('lpips', haveLpips))('uses LPIPS as the third term when weights and anchors have it', async () => {
    expect(grader.lpipsAvailable).toBe(true);
    expect(task.anchors.lpips_model).toBe('alex-v0.1');
    const g = await grader.grade(task, packRecords(built.init));
    expect(g.lpipsMissing).toBe(false);
    expect(g.lpips).toBeGreaterThan(0);
    expect(g.score).toBeCloseTo(((g.normalized.psnr + g.normalized.ssim + (g.normalized.lpips as number)) / 3), 12);
  });

  it('compares reference views with per-view metrics and renders, LPIPS only on request', async () => {
    const views = [task.reference[0], task.reference[6]];
    const m = await grader.compareViews(packRecords(built.truth), views);
    expect(m.map((v) => v.name)).toEqual(['V0', 'V6']);
    expect(m[0].iou).toBe(1);
    expect(m[0].psnr).toBeGreaterThan(40);
    expect(m[0].lpips).toBeUndefined();
    expect(m[0].render.rgb).toHaveLength(64 * 64 * 3);
    const renders = await grader.renderViews(emptySplats(0), [views[0].camera]);
    expect(renders[0].rgb.every((v) => v === 1)).toBe(true);
  });

  it('averages per-view metrics, with LPIPS null unless every view has it', () => {
    const mean = meanMetrics([{ name: 'a', psnr: 10, ssim: 0.5, iou: 0, lpips: 0.2 }, { name: 'b', psnr: 20, ssim: 0.7, iou: 1 }], true);
    expect(mean).toEqual({ psnr: 15, ssim: 0.6, iou: 0.5, lpips: null });
  });
});

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('Grader (GPU)', () => {
  // SwiftShader compiles and runs the WGSL on the CPU: one scene, generous timeout.
  it('agrees with the CPU grade and is deterministic', { timeout: 300_000 }, async () => {
    const gpu = await Grader.create({ device: gpuDevice });
    try {
      expect(gpu.kind).toBe('gpu');
      const cpu = await grader.grade(task, packRecords(built.init));
      const g = await gpu.grade(task, packRecords(built.init));
      expect(g.psnr).toBeCloseTo(cpu.psnr, 3);
      expect(g.ssim).toBeCloseTo(cpu.ssim, 4);
      expect(Math.abs(g.iou - cpu.iou)).toBeLessThan(0.01);
      if (cpu.lpips !== null) expect(g.lpips).toBeCloseTo(cpu.lpips, 4);
      expect(Math.abs(g.score - cpu.score)).toBeLessThan(0.05);
      g.perView.forEach((v, i) => expect(v.psnr).toBeCloseTo(cpu.perView[i].psnr, 3));
      expect(await gpu.grade(task, packRecords(built.init))).toEqual(g);
      expect(Math.abs((await gpu.grade(task, emptySplats(0))).score)).toBeLessThan(0.01);
    } finally {
      gpu.destroy();
    }
  });
});
