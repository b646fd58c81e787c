// The fit's step in row bands (issue 40 item 1, src/shared/authoring/fit/bands.ts): on the seeded
// 32x32 problem of fit.test.ts its records equal the one-pass backend's bit for bit and its loss
// curve the one recorded before (test/fixtures/fit) to 1e-12 relative (the bands' loss sums are
// added band by band), also when the helper thread fails; a step's
// gradients equal the one-pass gradients bit for bit and match central differences.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuFitBackend } from '../../../../src/shared/authoring/fit/backend';
import { bandFitBackend } from '../../../../src/shared/authoring/fit/backend-bands';
import { evaluateView, fitGaussians } from '../../../../src/shared/authoring/fit/fit';
import { LossTarget } from '../../../../src/shared/authoring/fit/loss';
import { accumulateGrads, paramsFromRecords, toSplats, zeroGrads, type FitParams, type ParamName } from '../../../../src/shared/authoring/fit/params';
import { gaussian, syntheticViews } from './fit-helpers';

const input = { views: syntheticViews(32), maxGaussians: 40, steps: 60, seed: 7 };
const recorded = (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'fit', 'loss-curve-32px-60.json'), 'utf8')) as { losses: number[] }).losses;

// A scene near the synthetic target but clearly different (objective.test.ts's), so every term has a gradient.
const GUESS = [
  gaussian(0, [0.05, -0.05, -0.25], 0.3, [0.6, 0.3, 0.3], 0.7),
  gaussian(1, [0.0, 0.1, 0.3], 0.25, [0.3, 0.3, 0.6], 0.6),
  gaussian(2, [-0.25, 0.25, -0.1], 0.2, [0.7, 0.7, 0.4], 0.5),
];

describe('the fit in row bands', () => {
  it('gives the one-pass records bit for bit and its loss curve to 1e-12, also with a failed helper', async () => {
    const one = await fitGaussians(input, cpuFitBackend());
    const a = await fitGaussians(input, bandFitBackend());
    expect(a.losses).toHaveLength(60);
    expect(JSON.stringify(a.records)).toBe(JSON.stringify(one.records));
    a.losses.forEach((l, i) => expect(Math.abs(l - recorded[i])).toBeLessThanOrEqual(1e-12 * recorded[i]));

    const failing = bandFitBackend({ start: () => Promise.reject(new Error('no thread')) }, { leaderBands: false });
    const c = await fitGaussians(input, failing);
    expect(c.losses).toEqual(a.losses);
    expect(JSON.stringify(c.records)).toBe(JSON.stringify(a.records));
    expect(failing.stats.here).toBe(failing.stats.bands);
  });

  const view = input.views[0];
  const stepOf = async (params: FitParams, withGrad: boolean): Promise<{ loss: number; grads: Record<ParamName, Float64Array> }> => {
    const backend = bandFitBackend();
    backend.stepper.prepare([view], params.count);
    const splats = toSplats(params);
    const r = await backend.stepper.evaluate(splats, view.camera, 0, withGrad);
    backend.stepper.end();
    const grads = zeroGrads(params.count);
    if (r.grads) accumulateGrads(splats, r.grads, grads);
    return { loss: r.parts.loss, grads };
  };

  it("a step's loss equals the one-pass loss and its gradients the one-pass gradients bit for bit", async () => {
    const params = paramsFromRecords(GUESS);
    const one = zeroGrads(params.count);
    const ref = await evaluateView(cpuFitBackend(), params, view.camera, new LossTarget(view.photo, view.mask), one);
    const banded = await stepOf(params, true);
    expect(Math.abs(banded.loss - ref.loss)).toBeLessThanOrEqual(1e-15);
    for (const name of Object.keys(one) as ParamName[]) expect(banded.grads[name]).toEqual(one[name]);
  });

  const cases: [ParamName, number][] = [['means', 0], ['means', 4], ['logScales', 1], ['quats', 6], ['colors', 5], ['opacityLogits', 2]];
  it.each(cases)('d loss / d %s[%i] matches central differences', async (name, index) => {
    const params = paramsFromRecords(GUESS);
    const { grads } = await stepOf(params, true);
    const h = 1e-6;
    const x0 = params[name][index];
    params[name][index] = x0 + h;
    const up = (await stepOf(params, false)).loss;
    params[name][index] = x0 - h;
    const down = (await stepOf(params, false)).loss;
    params[name][index] = x0;
    const fd = (up - down) / (2 * h);
    const an = grads[name][index];
    expect(Math.abs(an)).toBeGreaterThan(1e-6);
    expect(Math.abs(an - fd)).toBeLessThan(2e-3 * Math.abs(fd) + 1e-8);
  });
});
