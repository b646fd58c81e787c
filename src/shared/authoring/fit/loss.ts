// The reference fit's per-view loss (docs/DESIGN.md section 5) and its image gradients:
//   loss = 0.8 * L1(render, photo) + 0.2 * (1 - SSIM(render, photo)) + W_SIL * mean |coverage - mask|
// L1 is the mean absolute error over RGB values; SSIM is the grader's (metrics/ssim.ts);
// the silhouette term compares render coverage (1 - T_final) with the photo's object mask.
// W_SIL = 0.2: on a white background the RGB terms cannot see white or near-white parts of an
// object, so the mask term alone keeps their coverage; at 0.2 its per-pixel pull (0.2 / HW)
// matches the L1 term's (0.8 / 3HW per channel, summed over 3 channels = 0.27 / HW).
// Inputs: a render (rgb [H, W, 3], alpha [H, W]) and a LossTarget built once per view.
// Outputs: the loss value and v_rgb [H, W, 3], v_alpha [H, W] (float64, reused buffers).
// Invariant: the gradients are the exact derivative of the value (subgradient 0 at |0|).
import type { RgbImage } from '../../image/image';
import type { Floats } from '../../scene/splats';
import { SsimTarget } from './ssim';

export const W_L1 = 0.8;
export const W_SSIM = 0.2;
export const W_SIL = 0.2;

export interface LossParts {
  loss: number;
  l1: number;
  ssim: number;
  silhouette: number; // mean |coverage - mask|
}

export interface LossGrads {
  v_rgb: Float64Array; // [H, W, 3]
  v_alpha: Float64Array; // [H, W]
}

/** One reference view's photo and mask with the buffers its loss reuses every step. */
export class LossTarget {
  readonly width: number;
  readonly height: number;
  readonly grads: LossGrads;
  private readonly photo: Float32Array; // [H, W, 3]
  private readonly mask: Float32Array; // [H, W]
  private readonly ssim: SsimTarget;

  constructor(photo: RgbImage, mask: ArrayLike<number>) {
    const n = photo.width * photo.height;
    if (mask.length !== n) throw new Error(`mask has ${mask.length} values for a ${photo.width}x${photo.height} photo`);
    this.width = photo.width;
    this.height = photo.height;
    this.photo = Float32Array.from(photo.data);
    this.mask = Float32Array.from(mask);
    this.ssim = new SsimTarget(photo);
    this.grads = { v_rgb: new Float64Array(n * 3), v_alpha: new Float64Array(n) };
  }

  /** Loss of a render; fills `this.grads` with d loss / d rgb and d loss / d coverage when `withGrad`. */
  evaluate(rgb: Floats, alpha: Floats, withGrad = true): LossParts {
    const n = this.width * this.height;
    if (rgb.length !== n * 3 || alpha.length !== n) throw new Error(`render size does not match the ${this.width}x${this.height} target`);
    const { v_rgb, v_alpha } = this.grads;
    // SSIM first: it overwrites v_rgb with -W_SSIM * dSSIM, then L1 is added on top.
    const ssim = this.ssim.evaluate(rgb, withGrad ? v_rgb : undefined, -W_SSIM);
    const photo = this.photo;
    const gl1 = W_L1 / (n * 3);
    let l1 = 0;
    for (let i = 0; i < n * 3; i++) {
      const d = rgb[i] - photo[i];
      l1 += Math.abs(d);
      if (withGrad) v_rgb[i] += d > 0 ? gl1 : d < 0 ? -gl1 : 0;
    }
    l1 /= n * 3;
    const mask = this.mask;
    const gs = W_SIL / n;
    let sil = 0;
    for (let i = 0; i < n; i++) {
      const d = alpha[i] - mask[i];
      sil += Math.abs(d);
      if (withGrad) v_alpha[i] = d > 0 ? gs : d < 0 ? -gs : 0;
    }
    sil /= n;
    return { loss: W_L1 * l1 + W_SSIM * (1 - ssim) + W_SIL * sil, l1, ssim, silhouette: sil };
  }
}
