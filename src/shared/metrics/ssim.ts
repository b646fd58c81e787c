// SSIM (Wang et al. 2004) exactly as scikit-image's structural_similarity with
// gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=1, channel_axis=-1:
// 11-tap Gaussian (truncate 3.5) with 'reflect' borders, K1 0.01, K2 0.03, the 5-pixel border
// cropped before the mean, then the mean over channels. Also the gradient d ssim / d a.
// Inputs: RgbImage pairs, at least 11x11. Invariant: float64 arithmetic throughout, so the
// value matches the numpy reference to ~1e-12.
import type { RgbImage } from '../image/image';
import { assertSameSize } from './psnr';
import { blur, blurAdjoint, gaussianKernel } from './gaussian';

export const SSIM_SIGMA = 1.5;
export const SSIM_TRUNCATE = 3.5;
export const SSIM_K1 = 0.01;
export const SSIM_K2 = 0.03;
export const SSIM_C1 = SSIM_K1 * SSIM_K1;
export const SSIM_C2 = SSIM_K2 * SSIM_K2;
const KERNEL = gaussianKernel(SSIM_SIGMA, SSIM_TRUNCATE);
/** Border cropped before the mean: (win_size - 1) / 2 with win_size 11. */
export const SSIM_PAD = (KERNEL.length - 1) / 2;

function channel(img: RgbImage, c: number): Float64Array {
  const n = img.width * img.height;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = img.data[i * 3 + c];
  return out;
}

function product(x: Float64Array, y: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i] * y[i];
  return out;
}

function checkInputs(a: RgbImage, b: RgbImage): void {
  assertSameSize(a, b);
  if (a.width < KERNEL.length || a.height < KERNEL.length) {
    throw new Error(`SSIM needs images of at least ${KERNEL.length}x${KERNEL.length}, got ${a.width}x${a.height}`);
  }
}

/** One channel's blurred moments, [H, W]: ux = blur(x), uy = blur(y), uxx = blur(x x), uyy = blur(y y), uxy = blur(x y). */
export interface SsimMoments {
  ux: Float64Array;
  uy: Float64Array;
  uxx: Float64Array;
  uyy: Float64Array;
  uxy: Float64Array;
}

/** Where ssimMapSum writes `scale` times the gradient of its sum with respect to ux, uxx and uxy. */
export interface SsimMomentGrads {
  ux: Float64Array;
  uxx: Float64Array;
  uxy: Float64Array;
  scale: number;
}

/**
 * The sum of one channel's SSIM map over the interior (the SSIM_PAD border cropped), shared by
 * ssim() here and the fixed-photo path (ssim-target.ts). With `g`, also writes the upstream
 * gradients at each interior pixel; the border is not written (callers start from zeros).
 * `rows` [r0, r1) restricts both to those interior rows (a band of the fit's step).
 */
export function ssimMapSum(m: SsimMoments, w: number, h: number, g?: SsimMomentGrads, rows?: readonly [number, number]): number {
  const { ux, uy, uxx, uyy, uxy } = m;
  const p = SSIM_PAD;
  // Hoisted out of the per-pixel loop (the fit calls this thousands of times a run).
  const gx = g?.ux, gxx = g?.uxx, gxy = g?.uxy, scale = g?.scale ?? 0;
  const r0 = Math.max(p, rows ? rows[0] : p);
  const r1 = Math.min(h - p, rows ? rows[1] : h - p);
  let sum = 0;
  for (let yy = r0; yy < r1; yy++) {
    for (let xx = p; xx < w - p; xx++) {
      const i = yy * w + xx;
      const mx = ux[i];
      const my = uy[i];
      const a1 = 2 * mx * my + SSIM_C1;
      const a2 = 2 * (uxy[i] - mx * my) + SSIM_C2;
      const b1 = mx * mx + my * my + SSIM_C1;
      const b2 = uxx[i] - mx * mx + (uyy[i] - my * my) + SSIM_C2;
      const d = b1 * b2;
      const s = (a1 * a2) / d;
      sum += s;
      if (gx && gxx && gxy) {
        gx[i] = (scale * (2 * my * (a2 - a1) - 2 * mx * s * (b2 - b1))) / d;
        gxx[i] = (-scale * s) / b2;
        gxy[i] = (scale * 2 * a1) / d;
      }
    }
  }
  return sum;
}

/** Mean SSIM over channels and the cropped interior. */
export function ssim(a: RgbImage, b: RgbImage): number {
  return ssimImpl(a, b, false).value;
}

/** SSIM and its gradient with respect to `a` (the render), [H, W, 3]. */
export function ssimWithGrad(a: RgbImage, b: RgbImage): { value: number; grad: Float32Array } {
  const r = ssimImpl(a, b, true);
  return { value: r.value, grad: r.grad ?? new Float32Array(0) };
}

function ssimImpl(a: RgbImage, b: RgbImage, withGrad: boolean): { value: number; grad?: Float32Array } {
  checkInputs(a, b);
  const { width: w, height: h } = a;
  const p = SSIM_PAD;
  const count = (w - 2 * p) * (h - 2 * p);
  const grad = withGrad ? new Float32Array(w * h * 3) : undefined;
  let total = 0;
  for (let c = 0; c < 3; c++) {
    const x = channel(a, c);
    const y = channel(b, c);
    const ux = blur(x, h, w, KERNEL);
    const uy = blur(y, h, w, KERNEL);
    const uxx = blur(product(x, x), h, w, KERNEL);
    const uyy = blur(product(y, y), h, w, KERNEL);
    const uxy = blur(product(x, y), h, w, KERNEL);
    // Upstream gradients of the channel mean with respect to ux, uxx, uxy (zero in the border).
    const gUx = withGrad ? new Float64Array(w * h) : undefined;
    const gUxx = withGrad ? new Float64Array(w * h) : undefined;
    const gUxy = withGrad ? new Float64Array(w * h) : undefined;
    const sum = ssimMapSum({ ux, uy, uxx, uyy, uxy }, w, h, gUx && gUxx && gUxy ? { ux: gUx, uxx: gUxx, uxy: gUxy, scale: 1 / (count * 3) } : undefined);
    total += sum / count;
    if (grad && gUx && gUxx && gUxy) {
      const tUx = blurAdjoint(gUx, h, w, KERNEL);
      const tUxx = blurAdjoint(gUxx, h, w, KERNEL);
      const tUxy = blurAdjoint(gUxy, h, w, KERNEL);
      for (let i = 0; i < w * h; i++) grad[i * 3 + c] = tUx[i] + 2 * x[i] * tUxx[i] + y[i] * tUxy[i];
    }
  }
  return { value: total / 3, grad };
}
