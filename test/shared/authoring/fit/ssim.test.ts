// The fit's fast SSIM against the metrics reference (value and gradient), on non-square images
// so the row and column reflect tables are both exercised, and with a gradient scale.
import { describe, expect, it } from 'vitest';
import { SsimTarget } from '../../../../src/shared/authoring/fit/ssim';
import { ssimMapSum, ssimWithGrad, SSIM_SIGMA, SSIM_TRUNCATE } from '../../../../src/shared/metrics/ssim';
import { gaussianKernel } from '../../../../src/shared/metrics/gaussian';
import { Random } from '../../../../src/shared/math/random';
import type { RgbImage } from '../../../../src/shared/image/image';

function image(width: number, height: number, rng: Random): RgbImage {
  return { width, height, data: Float32Array.from({ length: width * height * 3 }, () => rng.next()) };
}

const K = gaussianKernel(SSIM_SIGMA, SSIM_TRUNCATE);
/** The symmetric 11-tap dot product at index c, stride st, out-of-range samples 0 (the float order SsimTarget keeps). */
function sym(a: Float64Array, c: number, st: number, ok: (t: number) => boolean): number {
  const at = (t: number): number => (ok(t) ? a[c + t * st] : 0);
  return K[5] * at(0) + K[4] * (at(-1) + at(1)) + K[3] * (at(-2) + at(2)) + K[2] * (at(-3) + at(3)) + K[1] * (at(-4) + at(4)) + K[0] * (at(-5) + at(5));
}

/** SsimTarget's value and scaled gradient computed pixel by pixel in its documented float order (issue 40: the fit stays bit for bit). */
function perPixelSsim(render: Float64Array, photo: RgbImage, scale: number): { value: number; grad: Float64Array } {
  const { width: w, height: h } = photo;
  const n = w * h;
  const grad = new Float64Array(n * 3);
  const count = (w - 10) * (h - 10);
  const plane = (f: (i: number) => number): Float64Array => Float64Array.from({ length: n }, (_, i) => f(i));
  const blur = (a: Float64Array): Float64Array => {
    const v = new Float64Array(n);
    for (let y = 5; y < h - 5; y++) for (let x = 0; x < w; x++) v[y * w + x] = sym(a, y * w + x, w, () => true);
    const out = new Float64Array(n);
    for (let y = 5; y < h - 5; y++) for (let x = 5; x < w - 5; x++) out[y * w + x] = sym(v, y * w + x, 1, () => true);
    return out;
  };
  const adjoint = (g: Float64Array): Float64Array => {
    const t = new Float64Array(n);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) t[y * w + x] = sym(g, y * w + x, 1, (d) => x + d >= 0 && x + d < w);
    const out = new Float64Array(n);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (y < Math.max(5, h - 5)) out[y * w + x] = sym(t, y * w + x, w, (d) => y + d >= 0 && y + d < h);
        else {
          let sum = 0;
          for (let d = -5; d <= 5; d++) sum += K[d + 5] * (y + d < h && y + d >= 0 ? t[(y + d) * w + x] : 0);
          out[y * w + x] = sum;
        }
      }
    }
    return out;
  };
  let value = 0;
  for (let c = 0; c < 3; c++) {
    const x = plane((i) => render[i * 3 + c]);
    const y = plane((i) => photo.data[i * 3 + c]);
    const g = { ux: new Float64Array(n), uxx: new Float64Array(n), uxy: new Float64Array(n), scale: scale / (count * 3) };
    const m = { ux: blur(x), uy: blur(y), uxx: blur(plane((i) => x[i] * x[i])), uyy: blur(plane((i) => y[i] * y[i])), uxy: blur(plane((i) => x[i] * y[i])) };
    value += ssimMapSum(m, w, h, g) / count;
    const [a, b, d] = [adjoint(g.ux), adjoint(g.uxx), adjoint(g.uxy)];
    for (let i = 0; i < n; i++) grad[i * 3 + c] = a[i] + 2 * x[i] * b[i] + y[i] * d[i];
  }
  return { value: value / 3, grad };
}

describe('SsimTarget', () => {
  it.each([
    [40, 33],
    [12, 11],
    [23, 31],
  ])('is bit for bit the per-pixel evaluation in its float order on %ix%i, whole and in bands', (w, h) => {
    const rng = new Random(w * 7 + h);
    const photo = image(w, h, rng);
    const render = Float64Array.from(image(w, h, rng).data, (v, i) => 0.5 * photo.data[i] + 0.5 * v);
    const ref = perPixelSsim(render, photo, -0.2);
    const target = new SsimTarget(photo);
    const grad = new Float64Array(w * h * 3);
    expect(target.evaluate(render, grad, -0.2)).toBe(ref.value);
    expect(grad).toEqual(ref.grad);
    const banded = new Float64Array(w * h * 3);
    const sums = new Float64Array(3);
    let total = [0, 0, 0];
    for (const [y0, y1] of [[0, 7], [7, h - 3], [h - 3, h]]) {
      target.evaluateRows(render, y0, y1, sums, banded, -0.2);
      total = total.map((t, c) => t + sums[c]);
    }
    expect(banded).toEqual(ref.grad);
    expect(total.reduce((a, t) => a + t / ((w - 10) * (h - 10)), 0) / 3).toBeCloseTo(ref.value, 14);
    // A target's first evaluation computes the photo's planes at the band's rows only (scratch),
    // its second keeps them whole: bands first, then whole evaluations, give the same floats.
    const fresh = new SsimTarget(photo);
    const firstBands = new Float64Array(w * h * 3);
    for (const [y0, y1] of [[0, 7], [7, h - 3], [h - 3, h]]) fresh.evaluateRows(render, y0, y1, sums, firstBands, -0.2);
    expect(firstBands).toEqual(ref.grad);
    for (let k = 0; k < 2; k++) {
      const again = new Float64Array(w * h * 3);
      expect(fresh.evaluate(render, again, -0.2)).toBe(ref.value);
      expect(again).toEqual(ref.grad);
    }
  });

  it('evaluates each of many targets once as it evaluates them again (the photo planes of a first evaluation)', () => {
    const rng = new Random(91);
    const [w, h] = [29, 24];
    const photos = [0, 1, 2].map(() => image(w, h, rng));
    const renders = photos.map((p) => Float64Array.from(image(w, h, rng).data, (v, i) => 0.7 * p.data[i] + 0.3 * v));
    // One target after another on the thread's shared scratch planes: each first evaluation's
    // value is the per-pixel definition's, and the kept planes of later ones give it again.
    const targets = photos.map((p) => new SsimTarget(p));
    const first = targets.map((t, i) => t.evaluate(renders[i]));
    expect(first).toEqual(photos.map((p, i) => perPixelSsim(renders[i], p, 1).value));
    expect(targets.map((t, i) => t.evaluate(renders[i]))).toEqual(first);
    expect(targets.map((t, i) => t.evaluate(renders[i]))).toEqual(first);
  });


  it.each([
    [40, 33],
    [11, 11],
    [27, 64],
  ])('matches metrics ssimWithGrad on %ix%i', (w, h) => {
    const rng = new Random(w * 100 + h);
    const photo = image(w, h, rng);
    const render = image(w, h, rng);
    // Make the pair correlated so SSIM is far from 0 and the gradient is not trivial.
    for (let i = 0; i < render.data.length; i++) render.data[i] = 0.6 * photo.data[i] + 0.4 * render.data[i];
    const ref = ssimWithGrad(render, photo);
    const target = new SsimTarget(photo);
    const grad = new Float64Array(w * h * 3);
    const value = target.evaluate(render.data, grad, -0.5);
    expect(Math.abs(value - ref.value)).toBeLessThan(1e-12);
    let maxErr = 0;
    let maxRef = 0;
    for (let i = 0; i < grad.length; i++) {
      maxErr = Math.max(maxErr, Math.abs(grad[i] - -0.5 * ref.grad[i]));
      maxRef = Math.max(maxRef, Math.abs(ref.grad[i]));
    }
    expect(maxRef).toBeGreaterThan(0);
    // The reference gradient is stored as float32: compare at its precision.
    expect(maxErr).toBeLessThan(maxRef * 1e-6);
    // Reusing the target (scratch planes) gives the same answer again.
    expect(target.evaluate(render.data)).toBe(value);
  });

  it('has the gradient of central finite differences, border pixels included', () => {
    const rng = new Random(17);
    const [w, h] = [15, 13];
    const photo = image(w, h, rng);
    const render = image(w, h, rng);
    const target = new SsimTarget(photo);
    const grad = new Float64Array(w * h * 3);
    target.evaluate(render.data, grad);
    const eps = 1e-4;
    // Corners, edges (where only the zero-padded adjoint reaches) and the interior.
    for (const p of [0, w - 1, (h - 1) * w, w * h - 1, 2 * w + 1, (h - 2) * w + 3, 7 * w + 7]) {
      for (let c = 0; c < 3; c++) {
        const i = p * 3 + c;
        const bumped = (d: number): number => target.evaluate(Float64Array.from(render.data, (v, j) => (j === i ? v + d : v)));
        const fd = (bumped(eps) - bumped(-eps)) / (2 * eps);
        expect(Math.abs(grad[i] - fd)).toBeLessThan(1e-8);
      }
    }
  });

  it('is 1 for the photo itself and rejects tiny images', () => {
    const photo = image(16, 16, new Random(3));
    expect(new SsimTarget(photo).evaluate(photo.data)).toBeCloseTo(1, 12);
    expect(() => new SsimTarget(image(10, 16, new Random(4)))).toThrow(/at least 11x11/);
  });
});
