// undecidablePixels (src/shared/raster/cpu/decidable.ts) without a GPU: pixels built to sit on
// each decision are marked for that reason, a scene far from every threshold has none, and the
// bounds are wide enough: float32-sized perturbations of a scene's parameters move no unmarked
// pixel of the float64 reference by more than 1e-5 (the GPU parity tests rely on exactly that).
import { describe, expect, it } from 'vitest';
import { undecidablePixels, type DecisionOptions } from '../../../../src/shared/raster/cpu/decidable';
import { cameraMath, projectGaussian, rasterizeForward } from '../../../../src/shared/raster/cpu';
import { orbitCamera } from '../../../../src/shared/camera/orbit';
import { mulberry32 } from '../../../../src/shared/math/random';
import { emptySplats, type Splats } from '../../../../src/shared/scene/splats';
import type { Camera } from '../../../../src/shared/raster/types';
import { randomCamera, randomSplats, withRandomSh } from './random-scene';

/** One isotropic Gaussian at the origin seen head-on: its 2D mean is the image centre. */
function single(opacity: number, scale = 0.2, color: [number, number, number] = [0.2, 0.5, 0.8]): Splats {
  const s = emptySplats(1, 'f64');
  s.scales.fill(scale);
  s.quats.set([1, 0, 0, 0]);
  s.colors.set(color);
  s.opacities[0] = opacity;
  return s;
}

function concat(a: Splats, b: Splats): Splats {
  const s = emptySplats(a.count + b.count, 'f64');
  for (const key of ['means', 'scales', 'quats', 'colors', 'opacities'] as const) {
    s[key].set(a[key]);
    s[key].set(b[key], a[key].length);
  }
  return s;
}

const cam: Camera = orbitCamera({ azimuth: 0, elevation: 0, width: 16, height: 16 });

describe('undecidablePixels', () => {
  it('marks nothing where no decision is near its threshold', () => {
    const r = undecidablePixels(single(0.6, 0.05), cam);
    expect(r.count).toBe(0);
  });

  it('marks a pixel whose alpha is 1/255 up to float32 rounding, for the alpha reason', () => {
    // Centre pixel (7.5 from the mean at 8 is d = 0.5 in x and y): choose o so that alpha = 1/255 there.
    const probe = single(0.5, 0.002);
    const q = quadratic(probe, cam, 7, 7);
    const o = Math.exp(0.5 * q) / 255;
    const r = undecidablePixels(single(o * (1 + 1e-7), 0.002), cam);
    expect(r.undecidable[7 * 16 + 7]).toBe(1);
    expect(r.byReason.alpha).toBeGreaterThanOrEqual(1);
    // Far from the threshold (o 1% higher) the same pixel is decidable.
    expect(undecidablePixels(single(o * 1.01, 0.002), cam).undecidable[7 * 16 + 7]).toBe(0);
  });

  it('marks the stop rule: T (1 - alpha) at 1e-4 up to rounding', () => {
    // Two layers clamped at alpha 0.99 leave T = 0.01^2 = 1e-4 at the centre: the second is on the stop rule.
    const front = single(1.5, 0.5); // opacity above 1 so that alpha clamps at the centre pixels
    const back = single(1.5, 0.5);
    back.means[0] = -0.01; // farther from the camera at azimuth 0 (which looks along -X)
    const r = undecidablePixels(concat(front, back), cam);
    expect(r.byReason.stop).toBeGreaterThan(0);
  });

  it('marks two layers float32 cannot order only when swapping them changes the pixel', () => {
    const a = single(0.7, 0.1, [1, 0, 0]);
    const b = single(0.7, 0.1001, [0, 0, 1]);
    b.means[0] = 1e-9; // nearer by far less than a float32 step of the depth
    expect(undecidablePixels(concat(a, b), cam).byReason.order).toBeGreaterThan(0);
    const same = single(0.7, 0.1001, [1, 0, 0]);
    same.means[0] = 1e-9;
    expect(undecidablePixels(concat(a, same), cam).byReason.order).toBe(0);
  });

  it('does not mark exact depth ties that float32 computes exactly too (both break them by index)', () => {
    // Azimuth 0 is axis-aligned: depth = 4.5 - x with no rounding in float32 or float64.
    const a = single(0.7, 0.1, [1, 0, 0]);
    const b = single(0.7, 0.1, [0, 0, 1]);
    b.means[1] = 0.03;
    const r = undecidablePixels(concat(a, b), cam);
    expect(r.byReason.order).toBe(0);
    // The same pair 1e-9 apart (not a float32 value) is a tie float32 may break either way.
    b.means[0] = 1e-9;
    expect(undecidablePixels(concat(a, b), cam).byReason.order).toBeGreaterThan(0);
  });

  it('marks the pixels of a Gaussian float32 may keep or cull at the near plane, and only those', () => {
    const s = single(0.8, 0.004);
    // The camera at azimuth 0 sits at x = 4.5 looking along -X: camera depth z = 4.5 - x.
    s.means[0] = 4.5 - 0.01;
    s.means[1] = 0.0001;
    const r = undecidablePixels(s, cam);
    expect(r.byReason.near).toBeGreaterThan(0);
    expect(r.count).toBe(r.byReason.near);
    s.means[0] = 4.5 - 0.0101; // a hundredth further: kept for certain
    expect(undecidablePixels(s, cam).byReason.near).toBe(0);
  });

  function perturbed(dopts: DecisionOptions): { worst: number; marked: number; pixels: number } {
    let worst = 0;
    let marked = 0;
    let pixels = 0;
    for (let trial = 0; trial < 6; trial++) {
      const rng = mulberry32(900 + trial);
      const view = randomCamera(rng, 64);
      const base = randomSplats(rng, 1500, view, { precision: 'f64', scaleRange: [0.01, 0.2] });
      const s = trial % 2 ? withRandomSh(rng, base, 3, 0.3) : base;
      const opts = { antialiased: trial % 3 === 0 };
      const ref = rasterizeForward(s, view, opts);
      const report = undecidablePixels(s, view, opts, dopts);
      marked += report.count;
      pixels += view.width * view.height;
      // Each parameter moved by a few float32 units in the last place, as an upload and a shader would.
      const wobble = (v: number) => v * (1 + (rng.next() - 0.5) * 8 * 2 ** -24);
      const p: Splats = { ...s, means: s.means.map(wobble), scales: s.scales.map(wobble), opacities: s.opacities.map(wobble), quats: s.quats.map(wobble) };
      const moved = rasterizeForward(p, view, opts);
      for (let i = 0; i < view.width * view.height; i++) {
        if (report.undecidable[i]) continue;
        worst = Math.max(worst, Math.abs(moved.alpha[i] - ref.alpha[i]));
        for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(moved.rgb[i * 3 + k] - ref.rgb[i * 3 + k]));
      }
    }
    return { worst, marked, pixels };
  }

  it('bounds float32-sized perturbations: no unmarked pixel of the reference moves by more than 1e-5', () => {
    const r = perturbed({});
    expect(r.worst).toBeLessThanOrEqual(1e-5);
    expect(r.marked / r.pixels).toBeLessThan(0.05);
    // Without the bounds the same perturbations flip decisions on unmarked pixels.
    expect(perturbed({ safety: 0, orderTolerance: Infinity }).worst).toBeGreaterThan(1e-5);
  });
});

/** q = d^T conic d of Gaussian 0 at pixel (px, py), from the reference projection. */
function quadratic(s: Splats, camera: Camera, px: number, py: number): number {
  const r = rasterProjection(s, camera);
  const dx = px + 0.5 - r.mean[0];
  const dy = py + 0.5 - r.mean[1];
  const [a, b, c] = r.conic;
  return a * dx * dx + 2 * b * dx * dy + c * dy * dy;
}

function rasterProjection(s: Splats, camera: Camera): { mean: [number, number]; conic: [number, number, number] } {
  const p = projectGaussian(s, 0, cameraMath(camera));
  if (!p) throw new Error('test Gaussian culled');
  return { mean: p.mean2d, conic: p.conic };
}
