import { describe, expect, it } from 'vitest';
import {
  cameraMath,
  projectGaussian,
  rasterizeBackward,
  rasterizeForwardState,
  tracePixel,
} from '../../../../src/shared/raster/cpu';
import { mulberry32, type Random } from '../../../../src/shared/math/random';
import type { Splats } from '../../../../src/shared/scene/splats';
import type { Camera, RasterOptions } from '../../../../src/shared/raster/types';
import { randomCamera, randomSplats } from './random-scene';

type ParamKey = 'means' | 'scales' | 'quats' | 'colors' | 'opacities';
const GRAD_OF: Record<ParamKey, 'v_means' | 'v_scales' | 'v_quats' | 'v_colors' | 'v_opacities'> = {
  means: 'v_means',
  scales: 'v_scales',
  quats: 'v_quats',
  colors: 'v_colors',
  opacities: 'v_opacities',
};

/** Scalar loss: random weights dotted with the image and the coverage. */
function lossOf(splats: Splats, cam: Camera, wRgb: Float64Array, wAlpha: Float64Array, opts: RasterOptions): number {
  const s = rasterizeForwardState(splats, cam, opts);
  let l = 0;
  for (let i = 0; i < s.rgb.length; i++) l += wRgb[i] * s.rgb[i];
  for (let i = 0; i < s.alpha.length; i++) l += wAlpha[i] * s.alpha[i];
  return l;
}

function randomWeights(rng: Random, n: number): Float64Array {
  return Float64Array.from({ length: n }, () => rng.uniform(-1, 1));
}

/** Central differences of every parameter against rasterizeBackward; returns the compared count. */
function checkAgainstFiniteDifferences(splats: Splats, cam: Camera, rng: Random, withAlpha: boolean, opts: RasterOptions = {}): number {
  const npix = cam.width * cam.height;
  const wRgb = randomWeights(rng, npix * 3);
  const wAlpha = withAlpha ? randomWeights(rng, npix) : new Float64Array(npix);
  const grads = rasterizeBackward(splats, cam, { v_rgb: wRgb, v_alpha: withAlpha ? wAlpha : undefined }, undefined, opts);
  const eps = 1e-6;
  let nonzero = 0;
  for (const key of Object.keys(GRAD_OF) as ParamKey[]) {
    const arr = splats[key];
    const grad = grads[GRAD_OF[key]];
    expect(grad.length).toBe(arr.length);
    for (let j = 0; j < arr.length; j++) {
      const v = arr[j];
      arr[j] = v + eps;
      const lp = lossOf(splats, cam, wRgb, wAlpha, opts);
      arr[j] = v - eps;
      const lm = lossOf(splats, cam, wRgb, wAlpha, opts);
      arr[j] = v;
      const fd = (lp - lm) / (2 * eps);
      const an = grad[j];
      if (Math.abs(fd - an) > 1e-6 + 1e-5 * Math.abs(an)) {
        throw new Error(`${key}[${j}]: analytic ${an}, finite difference ${fd}`);
      }
      if (Math.abs(an) > 1e-8) nonzero++;
    }
  }
  return nonzero;
}

describe('rasterizeBackward', () => {
  it('matches finite differences for every parameter kind (rgb and coverage loss)', () => {
    const rng = mulberry32(2024);
    for (let trial = 0; trial < 3; trial++) {
      const cam = randomCamera(rng, 24);
      const splats = randomSplats(rng, 8 + trial * 4, cam, { opacityRange: [0.1, 0.85], scaleRange: [0.08, 0.5] });
      expect(checkAgainstFiniteDifferences(splats, cam, rng, trial !== 1)).toBeGreaterThan(splats.count * 8);
    }
  });

  it('matches finite differences in the antialiased mode (opacity compensation sqrt(det / det_blur))', () => {
    const rng = mulberry32(2025);
    for (let trial = 0; trial < 3; trial++) {
      const cam = randomCamera(rng, 24);
      // Small Gaussians too, where the compensation is far from 1 and its gradient matters.
      const splats = randomSplats(rng, 8 + trial * 4, cam, { opacityRange: [0.2, 0.9], scaleRange: [0.01, 0.4] });
      const state = rasterizeForwardState(splats, cam, { antialiased: true });
      const comps = Array.from({ length: splats.count }, (_, i) => state.opacities[i] / splats.opacities[i]).filter((c) => c > 0);
      expect(Math.min(...comps)).toBeLessThan(0.9);
      expect(checkAgainstFiniteDifferences(splats, cam, rng, trial !== 1, { antialiased: true })).toBeGreaterThan(splats.count * 8);
    }
  });

  it('passes no gradient through the 0.99 clamp and still matches finite differences', () => {
    const rng = mulberry32(7);
    const cam = randomCamera(rng, 20);
    const splats = randomSplats(rng, 6, cam, { opacityRange: [0.995, 1], scaleRange: [0.15, 0.4] });
    const clampedPixels = Array.from({ length: 20 * 20 }, (_, p) => tracePixel(splats, cam, p % 20, Math.floor(p / 20)))
      .filter((t) => t.contributors.some((c) => c.alpha === 0.99)).length;
    expect(clampedPixels).toBeGreaterThan(0);
    checkAgainstFiniteDifferences(splats, cam, rng, true);
  });

  it('matches finite differences where the Jacobian clamp is active', () => {
    const rng = mulberry32(31);
    const cam = randomCamera(rng, 24);
    const splats = randomSplats(rng, 6, cam, { opacityRange: [0.2, 0.8], scaleRange: [0.3, 0.5] });
    // Put half of them off-axis beyond the clamp limits but close enough to reach the image.
    const cm = cameraMath(cam);
    const w = cm.w;
    for (let i = 0; i < 3; i++) {
      const z = rng.uniform(3.5, 5);
      const u = i === 0 ? cm.limXPos + 0.05 : -(cm.limXNeg + 0.05);
      const v = i === 2 ? cm.limYPos + 0.04 : rng.uniform(-0.2, 0.2);
      const c = [u * z - cm.t[0], v * z - cm.t[1], z - cm.t[2]];
      for (let k = 0; k < 3; k++) splats.means[i * 3 + k] = w[k] * c[0] + w[3 + k] * c[1] + w[6 + k] * c[2];
    }
    const clamped = [0, 1, 2].map((i) => projectGaussian(splats, i, cm));
    expect(clamped.every((p) => p !== null && (p.clampX || p.clampY))).toBe(true);
    const grads = rasterizeBackward(splats, cam, { v_rgb: new Float64Array(24 * 24 * 3).fill(1) });
    expect(Math.hypot(...grads.v_means.slice(0, 9))).toBeGreaterThan(0);
    checkAgainstFiniteDifferences(splats, cam, rng, true);
  });

  it('gives zero gradients to culled Gaussians', () => {
    const rng = mulberry32(3);
    const cam = randomCamera(rng, 16);
    const splats = randomSplats(rng, 10, cam, { nearFraction: 1 });
    const state = rasterizeForwardState(splats, cam);
    const grads = rasterizeBackward(splats, cam, { v_rgb: new Float64Array(16 * 16 * 3).fill(1) }, state);
    for (let i = 0; i < splats.count; i++) {
      if (state.projection.radii[i * 2] !== 0) continue;
      expect(grads.v_opacities[i]).toBe(0);
      expect(Array.from(grads.v_means.slice(i * 3, i * 3 + 3))).toEqual([0, 0, 0]);
    }
  });
});
