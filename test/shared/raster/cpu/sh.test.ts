// View-dependent colour of the CPU reference: the SH basis against an independent formula (real
// spherical harmonics with the Condon-Shortley phase from associated Legendre polynomials, which
// is 3DGS's convention), its derivatives, flat scenes untouched, and finite differences of the
// whole rasterizer for the SH coefficients, the mean through the view direction and the
// antialiased mode.
import { describe, expect, it } from 'vitest';
import {
  rasterizeBackward,
  rasterizeForward,
  rasterizeForwardDense,
  rasterizeForwardState,
  shBasis,
  shBasisGrad,
  viewColors,
} from '../../../../src/shared/raster/cpu';
import { mulberry32, type Random } from '../../../../src/shared/math/random';
import type { Splats } from '../../../../src/shared/scene/splats';
import type { Camera, RasterOptions } from '../../../../src/shared/raster/types';
import { randomCamera, randomSplats, withRandomSh } from './random-scene';

/** Associated Legendre P_l^m(x) with the Condon-Shortley phase, m >= 0. */
function legendre(l: number, m: number, x: number): number {
  let pmm = 1;
  const s = Math.sqrt(1 - x * x);
  for (let i = 1; i <= m; i++) pmm *= -(2 * i - 1) * s;
  if (l === m) return pmm;
  let pm1 = x * (2 * m + 1) * pmm;
  if (l === m + 1) return pm1;
  let out = 0;
  for (let ll = m + 2; ll <= l; ll++) {
    out = (x * (2 * ll - 1) * pm1 - (ll + m - 1) * pmm) / (ll - m);
    pmm = pm1;
    pm1 = out;
  }
  return out;
}

function factorial(n: number): number {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

/** Real SH: m < 0: sqrt2 K P_l^|m| sin(|m| phi), m = 0: K P_l^0, m > 0: sqrt2 K P_l^m cos(m phi). */
function realSh(l: number, m: number, x: number, y: number, z: number): number {
  const am = Math.abs(m);
  const k = Math.sqrt(((2 * l + 1) / (4 * Math.PI)) * (factorial(l - am) / factorial(l + am)));
  const phi = Math.atan2(y, x);
  const p = legendre(l, am, z);
  if (m === 0) return k * p;
  return Math.SQRT2 * k * p * (m < 0 ? Math.sin(am * phi) : Math.cos(am * phi));
}

function unit(rng: Random): [number, number, number] {
  const v = [rng.normal(), rng.normal(), rng.normal()];
  const n = Math.hypot(v[0], v[1], v[2]);
  return v.map((c) => c / n) as [number, number, number];
}

describe('SH basis', () => {
  it('equals real spherical harmonics with the Condon-Shortley phase, bands 1-3', () => {
    const rng = mulberry32(31);
    const b = new Float64Array(15);
    for (let trial = 0; trial < 50; trial++) {
      const [x, y, z] = unit(rng);
      shBasis(3, x, y, z, b);
      for (let l = 1; l <= 3; l++) {
        for (let m = -l; m <= l; m++) expect(b[l * l + l + m - 1]).toBeCloseTo(realSh(l, m, x, y, z), 12);
      }
    }
  });

  it('has the derivatives shBasisGrad says', () => {
    const rng = mulberry32(32);
    const b0 = new Float64Array(15);
    const b1 = new Float64Array(15);
    const g = new Float64Array(45);
    const eps = 1e-6;
    for (let trial = 0; trial < 10; trial++) {
      const d = unit(rng);
      shBasisGrad(3, d[0], d[1], d[2], g);
      for (let axis = 0; axis < 3; axis++) {
        const p = [...d];
        const m = [...d];
        p[axis] += eps;
        m[axis] -= eps;
        shBasis(3, p[0], p[1], p[2], b0);
        shBasis(3, m[0], m[1], m[2], b1);
        for (let k = 0; k < 15; k++) expect(g[k * 3 + axis]).toBeCloseTo((b0[k] - b1[k]) / (2 * eps), 7);
      }
    }
  });
});

describe('viewColors', () => {
  it('leaves a flat scene exactly as stored (same array, no clamp)', () => {
    const rng = mulberry32(3);
    const cam = randomCamera(rng, 16);
    const s = randomSplats(rng, 10, cam);
    s.colors[0] = -0.25;
    expect(viewColors(s, cam)).toBe(s.colors);
  });

  it('depends on the view, clamps at 0, and the band cap reduces to the DC colour', () => {
    const rng = mulberry32(4);
    const camA = randomCamera(rng, 16);
    const camB = randomCamera(rng, 16);
    const s = withRandomSh(rng, randomSplats(rng, 20, camA), 3, 0.6);
    const a = viewColors(s, camA);
    const b = viewColors(s, camB);
    let differs = 0;
    for (let i = 0; i < a.length; i++) {
      expect(a[i]).toBeGreaterThanOrEqual(0);
      if (Math.abs(a[i] - b[i]) > 1e-3) differs++;
    }
    expect(differs).toBeGreaterThan(10);
    const dc = viewColors(s, camA, { maxDegree: 0 });
    for (let i = 0; i < dc.length; i++) expect(dc[i]).toBe(Math.max(0, s.colors[i]));
  });

  it('renders the same image in the box-limited and the dense reference, degree 3', () => {
    const rng = mulberry32(5);
    const cam = randomCamera(rng, 20);
    const s = withRandomSh(rng, randomSplats(rng, 30, cam), 3);
    const a = rasterizeForward(s, cam);
    const d = rasterizeForwardDense(s, cam);
    expect(Array.from(a.rgb)).toEqual(Array.from(d.rgb));
    const aa = rasterizeForward(s, cam, { antialiased: true });
    const ad = rasterizeForwardDense(s, cam, { antialiased: true });
    expect(Array.from(aa.rgb)).toEqual(Array.from(ad.rgb));
    expect(Array.from(aa.alpha)).not.toEqual(Array.from(a.alpha));
  });
});

type Key = 'means' | 'scales' | 'quats' | 'colors' | 'opacities' | 'rest';

function lossOf(s: Splats, cam: Camera, w: Float64Array, wa: Float64Array, opts: RasterOptions): number {
  const st = rasterizeForwardState(s, cam, opts);
  let l = 0;
  for (let i = 0; i < st.rgb.length; i++) l += w[i] * st.rgb[i];
  for (let i = 0; i < st.alpha.length; i++) l += wa[i] * st.alpha[i];
  return l;
}

/** Central differences of the chosen parameters against rasterizeBackward; returns the non-zero count. */
function finiteDifferences(s: Splats, cam: Camera, rng: Random, keys: Key[], opts: RasterOptions): number {
  const npix = cam.width * cam.height;
  const w = Float64Array.from({ length: npix * 3 }, () => rng.uniform(-1, 1));
  const wa = Float64Array.from({ length: npix }, () => rng.uniform(-1, 1));
  const grads = rasterizeBackward(s, cam, { v_rgb: w, v_alpha: wa }, undefined, opts);
  const eps = 1e-6;
  let nonzero = 0;
  for (const key of keys) {
    const arr = key === 'rest' ? (s.sh?.rest as Float64Array) : s[key];
    const grad = key === 'rest' ? (grads.v_sh_rest as Float64Array) : grads[`v_${key}`];
    expect(grad.length).toBe(arr.length);
    for (let j = 0; j < arr.length; j++) {
      const v = arr[j];
      arr[j] = v + eps;
      const lp = lossOf(s, cam, w, wa, opts);
      arr[j] = v - eps;
      const lm = lossOf(s, cam, w, wa, opts);
      arr[j] = v;
      const fd = (lp - lm) / (2 * eps);
      if (Math.abs(fd - grad[j]) > 1e-6 + 1e-5 * Math.abs(grad[j])) throw new Error(`${key}[${j}]: analytic ${grad[j]}, finite difference ${fd}`);
      if (Math.abs(grad[j]) > 1e-8) nonzero++;
    }
  }
  return nonzero;
}

describe('SH and antialiasing gradients', () => {
  it('match finite differences for SH coefficients, DC colours and means, degrees 1-3', () => {
    const rng = mulberry32(2025);
    for (const degree of [1, 2, 3] as const) {
      const cam = randomCamera(rng, 16);
      const s = withRandomSh(rng, randomSplats(rng, 6, cam, { opacityRange: [0.1, 0.85], scaleRange: [0.1, 0.5] }), degree, 0.4);
      const k = (degree + 1) * (degree + 1) - 1;
      expect(finiteDifferences(s, cam, rng, ['rest', 'colors', 'means'], {})).toBeGreaterThan(s.count * k);
    }
  });

  it('passes no gradient where the evaluated colour is clamped at 0', () => {
    const rng = mulberry32(8);
    const cam = randomCamera(rng, 12);
    const s = withRandomSh(rng, randomSplats(rng, 4, cam, { scaleRange: [0.3, 0.5] }), 1, 0.01);
    s.colors.fill(-1);
    const g = rasterizeBackward(s, cam, { v_rgb: new Float64Array(12 * 12 * 3).fill(1) });
    expect(Array.from(g.v_colors).every((v) => v === 0)).toBe(true);
    expect(Array.from(g.v_sh_rest ?? []).every((v) => v === 0)).toBe(true);
  });

  it('match finite differences in the antialiased mode (every parameter)', () => {
    const rng = mulberry32(77);
    const cam = randomCamera(rng, 16);
    const s = withRandomSh(rng, randomSplats(rng, 6, cam, { opacityRange: [0.1, 0.85], scaleRange: [0.01, 0.3] }), 2);
    const n = finiteDifferences(s, cam, rng, ['means', 'scales', 'quats', 'colors', 'opacities', 'rest'], { antialiased: true });
    expect(n).toBeGreaterThan(s.count * 10);
  });

  it('with the band cap, gradients reach only the bands rendered', () => {
    const rng = mulberry32(9);
    const cam = randomCamera(rng, 12);
    const s = withRandomSh(rng, randomSplats(rng, 5, cam, { scaleRange: [0.2, 0.5] }), 3);
    const g = rasterizeBackward(s, cam, { v_rgb: new Float64Array(12 * 12 * 3).fill(1) }, undefined, { shDegree: 1 });
    const rest = g.v_sh_rest as Float64Array;
    for (let i = 0; i < s.count; i++) for (let k = 3; k < 15; k++) for (let c = 0; c < 3; c++) expect(rest[(i * 15 + k) * 3 + c]).toBe(0);
    expect(rest.some((v) => v !== 0)).toBe(true);
  });
});
