import { describe, expect, it } from 'vitest';
import {
  projectForward,
  rasterizeForward,
  rasterizeForwardDense,
  rasterizeForwardState,
  traceContributors,
  tracePixel,
} from '../../../../src/shared/raster/cpu';
import { emptySplats } from '../../../../src/shared/scene/splats';
import { mulberry32 } from '../../../../src/shared/math/random';
import type { Camera } from '../../../../src/shared/raster/types';
import { randomCamera, randomSplats } from './random-scene';

/** Camera on the -Z side of the origin looking along +Z, principal point at a pixel centre. */
function axisCamera(size: number, f: number, distance: number): Camera {
  const c = size / 2; // odd size: the centre pixel (size - 1) / 2 has its centre exactly here
  return {
    width: size,
    height: size,
    fx: f,
    fy: f,
    cx: c,
    cy: c,
    world_to_camera: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, distance, 0, 0, 0, 1],
  };
}

describe('rasterizeForward', () => {
  it('matches the dense definition exactly on random scenes with border, near-plane and behind-camera Gaussians', () => {
    const rng = mulberry32(1234);
    for (let trial = 0; trial < 6; trial++) {
      const cam = randomCamera(rng, 24 + trial * 4);
      const splats = randomSplats(rng, 20 + trial * 5, cam, {
        nearFraction: 0.25,
        precision: trial % 2 ? 'f32' : 'f64',
        opacityRange: [0.002, 1],
      });
      const box = rasterizeForward(splats, cam);
      const dense = rasterizeForwardDense(splats, cam);
      expect(Array.from(box.rgb)).toEqual(Array.from(dense.rgb));
      expect(Array.from(box.alpha)).toEqual(Array.from(dense.alpha));
      const proj = projectForward(splats, cam);
      const culled = Array.from({ length: splats.count }, (_, i) => proj.radii[i * 2] === 0).filter(Boolean).length;
      expect(culled).toBeGreaterThan(0);
      expect(culled).toBeLessThan(splats.count);
    }
  });

  it('matches the dense definition where opaque layers trigger the transmittance stop', () => {
    const rng = mulberry32(77);
    const cam = randomCamera(rng, 32);
    const splats = randomSplats(rng, 60, cam, { opacityRange: [0.9, 1], scaleRange: [0.2, 0.5] });
    const state = rasterizeForwardState(splats, cam);
    const dense = rasterizeForwardDense(splats, cam);
    expect(Array.from(rasterizeForward(splats, cam).rgb)).toEqual(Array.from(dense.rgb));
    // The stop must actually have happened somewhere: coverage close to 1 but T_final > 1e-4.
    const stopped = Array.from({ length: 32 * 32 }, (_, p) => tracePixel(splats, cam, p % 32, Math.floor(p / 32)).stoppedBy >= 0);
    expect(stopped.some(Boolean)).toBe(true);
    for (const t of state.transmittance) expect(t).toBeGreaterThan(1e-4);
  });

  it('gives the analytic value of a single isotropic Gaussian facing the camera', () => {
    const f = 40;
    const z = 3;
    const s = 0.1;
    const o = 0.8;
    const cam = axisCamera(31, f, z);
    const splats = emptySplats(1, 'f64');
    splats.scales.set([s, s, s]);
    splats.colors.set([0.2, 0.5, 0.9]);
    splats.opacities[0] = o;
    const out = rasterizeForwardState(splats, cam);
    const centre = 15 * 31 + 15;
    expect(out.alpha[centre]).toBeCloseTo(o, 14);
    expect(out.rgb[centre * 3]).toBeCloseTo(0.2 * o + (1 - o), 14);
    expect(out.rgb[centre * 3 + 2]).toBeCloseTo(0.9 * o + (1 - o), 14);
    // cov2d = (f s / z)^2 + 0.3 on the diagonal; an offset of 3 px along x.
    const variance = (f * s / z) ** 2 + 0.3;
    const expected = o * Math.exp(-0.5 * 9 / variance);
    expect(out.alpha[15 * 31 + 18]).toBeCloseTo(expected, 14);
    expect(out.alpha[12 * 31 + 15]).toBeCloseTo(expected, 14);
  });

  it('clamps alpha at 0.99 and leaves white where nothing is drawn', () => {
    const cam = axisCamera(15, 30, 3);
    const splats = emptySplats(1, 'f64');
    splats.scales.set([0.05, 0.05, 0.05]);
    splats.opacities[0] = 1;
    const out = rasterizeForwardState(splats, cam);
    expect(out.alpha[7 * 15 + 7]).toBeCloseTo(0.99, 14);
    expect(out.rgb[0]).toBe(1);
    expect(out.alpha[0]).toBe(0);
  });

  it('culls behind the near plane and skips Gaussians with opacity below 1/255', () => {
    const cam = axisCamera(9, 20, 0.005);
    const splats = emptySplats(2, 'f64');
    splats.scales.set([0.1, 0.1, 0.1, 0.1, 0.1, 0.1]);
    splats.means.set([0, 0, 0, 0, 0, 1]);
    splats.opacities.set([1, 0.003]);
    const proj = projectForward(splats, cam);
    expect(Array.from(proj.radii)).toEqual([0, 0, 0, 0]);
    expect(Array.from(rasterizeForward(splats, cam).alpha).every((a) => a === 0)).toBe(true);
  });

  it('keeps alpha below 1/255 at every pixel centre outside the exact box', () => {
    const rng = mulberry32(5);
    const cam = randomCamera(rng, 40);
    const splats = randomSplats(rng, 15, cam, { scaleRange: [0.02, 0.3] });
    const proj = projectForward(splats, cam);
    for (let g = 0; g < splats.count; g++) {
      const rx = proj.radii[g * 2];
      const ry = proj.radii[g * 2 + 1];
      if (rx === 0) continue;
      const [a, b, c] = [proj.conics[g * 3], proj.conics[g * 3 + 1], proj.conics[g * 3 + 2]];
      let inside = 0;
      for (let dy = -ry - 3; dy <= ry + 3; dy += 0.5) {
        for (let dx = -rx - 3; dx <= rx + 3; dx += 0.5) {
          const alpha = splats.opacities[g] * Math.exp(-0.5 * (a * dx * dx + 2 * b * dx * dy + c * dy * dy));
          if (Math.abs(dx) > rx || Math.abs(dy) > ry) expect(alpha).toBeLessThan(1 / 255);
          else if (alpha >= 1 / 255) inside++;
        }
      }
      expect(inside).toBeGreaterThan(0);
    }
  });
});

describe('traceContributors', () => {
  it('replays the forward pass pixel by pixel', () => {
    const rng = mulberry32(99);
    const cam = randomCamera(rng, 20);
    const splats = randomSplats(rng, 25, cam, { scaleRange: [0.1, 0.5] });
    const state = rasterizeForwardState(splats, cam);
    let seen = 0;
    for (const [px, py] of [[10, 10], [3, 15], [0, 0], [19, 7]]) {
      const trace = tracePixel(splats, cam, px, py);
      const p = py * 20 + px;
      for (let k = 0; k < 3; k++) expect(trace.rgb[k]).toBeCloseTo(state.rgb[p * 3 + k], 14);
      expect(1 - trace.T_final).toBeCloseTo(state.alpha[p], 14);
      const list = traceContributors(splats, cam, px, py);
      for (let i = 1; i < list.length; i++) {
        expect(list[i].depth).toBeGreaterThanOrEqual(list[i - 1].depth);
        expect(list[i].T_before).toBe(list[i - 1].T_after);
      }
      seen += list.length;
    }
    expect(seen).toBeGreaterThan(0);
  });
});
