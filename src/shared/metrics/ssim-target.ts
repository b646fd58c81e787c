// Fast SSIM against a fixed photo, and its gradient: the same value as ssim.ts (scikit-image's
// gaussian-weighted SSIM, 'reflect' borders, 5-pixel crop, mean over channels) but built for
// many calls against one photo (the fit's thousands of steps, the grader's repeated grades):
// the photo's blurred planes are computed once, blurs use precomputed reflect tables instead of
// a modulo per tap, and scratch planes are reused.
// Inputs: a render [H, W, 3] (Float32Array or Float64Array) and an SsimTarget of the photo.
// Output: mean SSIM and, on request, d SSIM / d render [H, W, 3] (float64, into a caller buffer).
// Invariant: agrees with ssim.ts ssimWithGrad to ~1e-12 (tested); not thread-safe
// (an SsimTarget owns its scratch planes).
import type { Floats } from '../scene/splats';
import { gaussianKernel, reflectIndex } from './gaussian';
import { ssimMapSum, SSIM_SIGMA, SSIM_TRUNCATE } from './ssim';

const KERNEL = gaussianKernel(SSIM_SIGMA, SSIM_TRUNCATE);
const R = (KERNEL.length - 1) / 2;

if (KERNEL.length !== 11) throw new Error(`SsimTarget expects an 11-tap window, got ${KERNEL.length}`);
// The window is symmetric (k[t] = k[10 - t]), so each output needs 6 multiplies instead of 11.
const [K0, K1, K2, K3, K4, K5] = KERNEL;

/** Symmetric 11-tap dot product of `a` around centre index c (stride `st`). */
function tap11(a: Float64Array, c: number, st: number): number {
  return (
    K5 * a[c] +
    K4 * (a[c - st] + a[c + st]) +
    K3 * (a[c - 2 * st] + a[c + 2 * st]) +
    K2 * (a[c - 3 * st] + a[c + 3 * st]) +
    K1 * (a[c - 4 * st] + a[c + 4 * st]) +
    K0 * (a[c - 5 * st] + a[c + 5 * st])
  );
}

/**
 * Separable blur of [H, W] planes with scipy's 'reflect' border, and its adjoint, on reused
 * scratch space. blur = vertical pass then horizontal pass, as metrics/gaussian.ts.
 * Forward: out[i] = sum_t k[t] padded[i + t], padded[j] = in[reflect(j - R)].
 * Adjoint: gPadded[j] = sum_t k[t] g[j - t] (g zero outside), then in[reflect(j - R)] += gPadded[j].
 */
class Blurrer {
  private readonly reflectRows: Int32Array; // [H + 2R] source row reflect(j - R) of padded row j
  private readonly reflectCols: Int32Array; // [W + 2R] source column of padded column j
  private readonly rowPad: Float64Array; // [W + 4R] one padded row
  private readonly tmp: Float64Array; // [H, W]
  private readonly colPad: Float64Array; // [(H + 2R), W] vertically padded plane

  constructor(
    readonly h: number,
    readonly w: number,
  ) {
    this.reflectRows = Int32Array.from({ length: h + 2 * R }, (_, j) => reflectIndex(j - R, h));
    this.reflectCols = Int32Array.from({ length: w + 2 * R }, (_, j) => reflectIndex(j - R, w));
    this.rowPad = new Float64Array(w + 4 * R);
    this.tmp = new Float64Array(h * w);
    this.colPad = new Float64Array((h + 2 * R) * w);
  }

  /** out = blur(src). */
  blur(src: Float64Array, out: Float64Array): void {
    const { h, w, tmp, colPad, rowPad, reflectRows, reflectCols } = this;
    // Vertical: pad rows by reflection into colPad, then convolve along columns.
    for (let j = 0; j < h + 2 * R; j++) colPad.set(src.subarray(reflectRows[j] * w, reflectRows[j] * w + w), j * w);
    for (let y = 0; y < h; y++) {
      const c = (y + R) * w;
      const o = y * w;
      for (let x = 0; x < w; x++) tmp[o + x] = tap11(colPad, c + x, w);
    }
    // Horizontal: pad each row by reflection, then convolve.
    for (let y = 0; y < h; y++) {
      const o = y * w;
      for (let j = 0; j < w + 2 * R; j++) rowPad[j] = tmp[o + reflectCols[j]];
      for (let x = 0; x < w; x++) out[o + x] = tap11(rowPad, x + R, 1);
    }
  }

  /** out = blur^T(src): horizontal adjoint then vertical adjoint. */
  blurAdjoint(src: Float64Array, out: Float64Array): void {
    const { h, w, tmp, rowPad, reflectRows, reflectCols } = this;
    // Horizontal adjoint: zero-extend the row by 2R each side, convolve to the W + 2R padded
    // positions, fold each padded position back onto the sample it reflects.
    rowPad.fill(0);
    for (let y = 0; y < h; y++) {
      const o = y * w;
      rowPad.set(src.subarray(o, o + w), 2 * R);
      for (let x = 0; x < w; x++) tmp[o + x] = 0;
      for (let j = 0; j < w + 2 * R; j++) tmp[o + reflectCols[j]] += tap11(rowPad, j + R, 1);
    }
    // Vertical adjoint: the same along columns, with tmp zero-extended by 2R rows each side.
    out.fill(0);
    for (let j = 0; j < h + 2 * R; j++) {
      const d = reflectRows[j] * w;
      const y0 = j - 2 * R; // first source row of this padded row's window
      if (y0 >= 0 && y0 + 2 * R < h) {
        const c = (j - R) * w;
        for (let x = 0; x < w; x++) out[d + x] += tap11(tmp, c + x, w);
        continue;
      }
      for (let t = 0; t <= 2 * R; t++) {
        const ys = y0 + t;
        if (ys < 0 || ys >= h) continue;
        const k = KERNEL[t];
        const s = ys * w;
        for (let x = 0; x < w; x++) out[d + x] += k * tmp[s + x];
      }
    }
  }
}

/** Per-view constants of the photo plus scratch planes for one render at a time. */
export class SsimTarget {
  readonly width: number;
  readonly height: number;
  private readonly blurrer: Blurrer;
  private readonly y: Float64Array[]; // 3 x [H, W] photo channels
  private readonly uy: Float64Array[]; // 3 x [H, W] blur(y)
  private readonly uyy: Float64Array[]; // 3 x [H, W] blur(y * y)
  // Scratch: x channel, x*x, x*y, their blurs, the three upstream planes and their adjoints.
  private readonly s: Float64Array[];

  constructor(photo: { width: number; height: number; data: Floats }) {
    const { width: w, height: h } = photo;
    if (w < KERNEL.length || h < KERNEL.length) throw new Error(`SSIM needs images of at least ${KERNEL.length}x${KERNEL.length}, got ${w}x${h}`);
    this.width = w;
    this.height = h;
    this.blurrer = new Blurrer(h, w);
    const n = w * h;
    this.y = [];
    this.uy = [];
    this.uyy = [];
    for (let c = 0; c < 3; c++) {
      const y = new Float64Array(n);
      for (let i = 0; i < n; i++) y[i] = photo.data[i * 3 + c];
      const yy = y.map((v) => v * v);
      const uy = new Float64Array(n);
      const uyy = new Float64Array(n);
      this.blurrer.blur(y, uy);
      this.blurrer.blur(yy, uyy);
      this.y.push(y);
      this.uy.push(uy);
      this.uyy.push(uyy);
    }
    this.s = Array.from({ length: 9 }, () => new Float64Array(n));
  }

  /**
   * Mean SSIM of `render` against the photo; when `grad` ([H, W, 3]) is given, writes
   * `gradScale * d SSIM / d render` into it (overwriting).
   */
  evaluate(render: Floats, grad?: Float64Array, gradScale = 1): number {
    const { width: w, height: h, blurrer } = this;
    const n = w * h;
    const [x, xx, xy, ux, uxx, uxy, gUx, gUxx, gUxy] = this.s;
    const count = (w - 2 * R) * (h - 2 * R);
    const scale = gradScale / (count * 3);
    let total = 0;
    for (let c = 0; c < 3; c++) {
      const y = this.y[c];
      const uy = this.uy[c];
      const uyy = this.uyy[c];
      for (let i = 0; i < n; i++) {
        const v = render[i * 3 + c];
        x[i] = v;
        xx[i] = v * v;
        xy[i] = v * y[i];
      }
      blurrer.blur(x, ux);
      blurrer.blur(xx, uxx);
      blurrer.blur(xy, uxy);
      if (grad) {
        gUx.fill(0);
        gUxx.fill(0);
        gUxy.fill(0);
      }
      const sum = ssimMapSum({ ux, uy, uxx, uyy, uxy }, w, h, grad ? { ux: gUx, uxx: gUxx, uxy: gUxy, scale } : undefined);
      total += sum / count;
      if (grad) {
        // d/dx of blur terms: A^T gUx + 2 x A^T gUxx + y A^T gUxy (reusing ux, uxx, uxy as outputs).
        blurrer.blurAdjoint(gUx, ux);
        blurrer.blurAdjoint(gUxx, uxx);
        blurrer.blurAdjoint(gUxy, uxy);
        for (let i = 0; i < n; i++) grad[i * 3 + c] = ux[i] + 2 * x[i] * uxx[i] + y[i] * uxy[i];
      }
    }
    return total / 3;
  }
}
