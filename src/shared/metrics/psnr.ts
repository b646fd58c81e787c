// PSNR and L1 between two RGB images (docs/DESIGN.md section 4), with the L1 gradient for fitting.
// Inputs: two RgbImage of the same size, values in [0, 1]. Outputs: dB / mean absolute error.
// Invariant: identical images give PSNR = Infinity exactly; callers format it, nothing caps it.
import type { RgbImage } from '../image/image';

export function assertSameSize(a: { width: number; height: number; data: ArrayLike<number> }, b: { width: number; height: number; data: ArrayLike<number> }): void {
  if (a.width !== b.width || a.height !== b.height || a.data.length !== b.data.length) {
    throw new Error(`image sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  }
}

/** Mean squared error over every RGB value. */
export function mse(a: RgbImage, b: RgbImage): number {
  assertSameSize(a, b);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = a.data[i] - b.data[i];
    sum += d * d;
  }
  return sum / a.data.length;
}

/** PSNR in dB for data range 1: 10 log10(1 / MSE); Infinity when the images are identical. */
export function psnr(a: RgbImage, b: RgbImage): number {
  return psnrFromMse(mse(a, b));
}

export function psnrFromMse(m: number): number {
  return m === 0 ? Infinity : -10 * Math.log10(m);
}

/** Mean absolute error and its gradient with respect to `a` (sign(a - b) / N; 0 where equal). */
export function l1WithGrad(a: RgbImage, b: RgbImage): { value: number; grad: Float32Array } {
  assertSameSize(a, b);
  const n = a.data.length;
  const grad = new Float32Array(n); // [H, W, 3]
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = a.data[i] - b.data[i];
    sum += Math.abs(d);
    grad[i] = d > 0 ? 1 / n : d < 0 ? -1 / n : 0;
  }
  return { value: sum / n, grad };
}
