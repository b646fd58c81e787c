// The full per-view loss (0.8 L1 + 0.2 (1 - SSIM) + silhouette) through the CPU rasterizer
// backward and the unconstrained parametrisation, against central finite differences (float64).
import { describe, expect, it } from 'vitest';
import { cpuFitBackend } from '../../../../src/shared/authoring/fit/backend';
import { evaluateView } from '../../../../src/shared/authoring/fit/fit';
import { LossTarget, W_L1, W_SIL, W_SSIM } from '../../../../src/shared/authoring/fit/loss';
import { paramsFromRecords, zeroGrads, type ParamName } from '../../../../src/shared/authoring/fit/params';
import { gaussian, syntheticViews } from './fit-helpers';

// A scene near the target but clearly different, so every loss term has a gradient.
const GUESS = [
  gaussian(0, [0.05, -0.05, -0.25], 0.3, [0.6, 0.3, 0.3], 0.7),
  gaussian(1, [0.0, 0.1, 0.3], 0.25, [0.3, 0.3, 0.6], 0.6),
  gaussian(2, [-0.25, 0.25, -0.1], 0.2, [0.7, 0.7, 0.4], 0.5),
];

describe('evaluateView gradient', () => {
  const view = syntheticViews(24)[0];
  const target = new LossTarget(view.photo, view.mask);
  const backend = cpuFitBackend();

  const cases: [ParamName, number][] = [
    ['means', 0], ['means', 4], ['means', 8],
    ['logScales', 1], ['logScales', 5],
    ['quats', 0], ['quats', 6], ['quats', 11],
    ['colors', 0], ['colors', 5],
    ['opacityLogits', 0], ['opacityLogits', 2],
  ];

  it.each(cases)('d loss / d %s[%i] matches central differences', async (name, index) => {
    const params = paramsFromRecords(GUESS);
    const grads = zeroGrads(params.count);
    const base = await evaluateView(backend, params, view.camera, target, grads);
    expect(base.loss).toBeCloseTo(W_L1 * base.l1 + W_SSIM * (1 - base.ssim) + W_SIL * base.silhouette, 12);
    const h = 1e-6;
    const arr = params[name];
    const x0 = arr[index];
    arr[index] = x0 + h;
    const up = (await evaluateView(backend, params, view.camera, target)).loss;
    arr[index] = x0 - h;
    const down = (await evaluateView(backend, params, view.camera, target)).loss;
    arr[index] = x0;
    const fd = (up - down) / (2 * h);
    const an = grads[name][index];
    expect(Math.abs(an)).toBeGreaterThan(1e-6);
    expect(Math.abs(an - fd)).toBeLessThan(2e-3 * Math.abs(fd) + 1e-8);
  });
});
