// The fit's fast SSIM against the metrics reference (value and gradient), on non-square images
// so the row and column reflect tables are both exercised, and with a gradient scale.
import { describe, expect, it } from 'vitest';
import { SsimTarget } from '../../../../src/shared/authoring/fit/ssim';
import { ssimWithGrad } from '../../../../src/shared/metrics/ssim';
import { Random } from '../../../../src/shared/math/random';
import type { RgbImage } from '../../../../src/shared/image/image';

function image(width: number, height: number, rng: Random): RgbImage {
  return { width, height, data: Float32Array.from({ length: width * height * 3 }, () => rng.next()) };
}

describe('SsimTarget', () => {
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
