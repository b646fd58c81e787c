// The reference fit's per-view loss (docs/DESIGN.md section 5) and its image gradients:
//   loss = 0.8 * L1(render, photo) + 0.2 * (1 - SSIM(render, photo)) + W_SIL * mean |coverage - mask|
// L1 is the mean absolute error over RGB values; SSIM is the grader's (metrics/ssim.ts);
// the silhouette term compares render coverage (1 - T_final) with the photo's object mask.
// W_SIL = 0.2: on a white background the RGB terms cannot see white or near-white parts of an
// object, so the mask term alone keeps their coverage; at 0.2 its per-pixel pull (0.2 / HW)
// matches the L1 term's (0.8 / 3HW per channel, summed over 3 channels = 0.27 / HW).
// Inputs: a render (rgb [H, W, 3], alpha [H, W]) and a LossTarget built once per view.
// Outputs: the loss value and v_rgb [H, W, 3], v_alpha [H, W] (float64, reused buffers); per
// band of rows (evaluateRows, the fit's banded step) the same gradients and the sums parts() adds.
// Invariant: the gradients are the exact derivative of the value (subgradient 0 at |0|).
import type { RgbImage } from '../../image/image';
import type { Floats } from '../../scene/splats';
import { SSIM_PAD } from '../../metrics/ssim';
import { SsimTarget } from './ssim';

/** Values a band's evaluation sums (LossTarget.evaluateRows). */
export const LOSS_SUMS = 5;

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
  private readonly ssimSums = new Float64Array(3);

  constructor(photo: RgbImage, mask: ArrayLike<number>) {
    const n = photo.width * photo.height;
    if (mask.length !== n) throw new Error(`mask has ${mask.length} values for a ${photo.width}x${photo.height} photo`);
    this.width = photo.width;
    this.height = photo.height;
    this.photo = Float32Array.from(photo.data);
    this.mask = Float32Array.from(mask);
    // Its own copy: the SSIM target reads its photo again on its second evaluation.
    this.ssim = new SsimTarget({ width: photo.width, height: photo.height, data: this.photo });
    this.grads = { v_rgb: new Float64Array(n * 3), v_alpha: new Float64Array(n) };
  }

  /** Loss of a render; fills `this.grads` with d loss / d rgb and d loss / d coverage when `withGrad`. */
  evaluate(rgb: Floats, alpha: Floats, withGrad = true): LossParts {
    const n = this.width * this.height;
    if (rgb.length !== n * 3 || alpha.length !== n) throw new Error(`render size does not match the ${this.width}x${this.height} target`);
    const sums = new Float64Array(LOSS_SUMS);
    this.evaluateRows(rgb, alpha, withGrad, 0, this.height, sums);
    return this.parts([sums]);
  }

  /**
   * One band of rows [y0, y1) of `evaluate` (the fit's step splits the image over threads): the
   * gradients at the band's pixels (the same floats as a whole-image evaluation) and the band's
   * sums into `sums` (LOSS_SUMS values: L1, silhouette, SSIM map per channel), which parts()
   * turns into the loss. Reads the render's rows within 10 of the band (SSIM's window, twice).
   */
  evaluateRows(rgb: Floats, alpha: Floats, withGrad: boolean, y0: number, y1: number, sums: Float64Array): void {
    const w = this.width;
    const n = w * this.height;
    const { v_rgb, v_alpha } = this.grads;
    // SSIM first: it overwrites v_rgb with -W_SSIM * dSSIM, then L1 is added on top.
    this.ssim.evaluateRows(rgb, y0, y1, this.ssimSums, withGrad ? v_rgb : undefined, -W_SSIM);
    const photo = this.photo;
    const gl1 = W_L1 / (n * 3);
    let l1 = 0;
    // The gradient's sign as a product (gl1 times 1, -1 or 0: the same floats as choosing gl1, -gl1
    // or 0) compiles without branches; the signs of a render against its photo are unpredictable
    // (issue 40 item 1: this loop took 1.7 ms a step with them, 0.35 without).
    for (let i = y0 * w * 3; i < y1 * w * 3; i++) {
      const d = rgb[i] - photo[i];
      l1 += Math.abs(d);
      if (withGrad) v_rgb[i] += gl1 * (Number(d > 0) - Number(d < 0));
    }
    const mask = this.mask;
    const gs = W_SIL / n;
    let sil = 0;
    for (let i = y0 * w; i < y1 * w; i++) {
      const d = alpha[i] - mask[i];
      sil += Math.abs(d);
      if (withGrad) v_alpha[i] = gs * (Number(d > 0) - Number(d < 0));
    }
    sums[0] = l1;
    sums[1] = sil;
    sums.set(this.ssimSums, 2);
  }

  /** The loss from the sums of the bands that cover the image, added in the bands' order. */
  parts(bands: readonly Float64Array[]): LossParts {
    const n = this.width * this.height;
    const count = (this.width - 2 * SSIM_PAD) * (this.height - 2 * SSIM_PAD);
    const total = (k: number): number => bands.reduce((sum, b) => sum + b[k], 0);
    const l1 = total(0) / (n * 3);
    const sil = total(1) / n;
    let ssim = 0;
    for (let c = 0; c < 3; c++) ssim += total(2 + c) / count;
    ssim /= 3;
    return { loss: W_L1 * l1 + W_SSIM * (1 - ssim) + W_SIL * sil, l1, ssim, silhouette: sil };
  }
}
