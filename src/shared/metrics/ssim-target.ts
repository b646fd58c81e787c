// Fast SSIM against a fixed photo, and its gradient: the same value as ssim.ts (scikit-image's
// gaussian-weighted SSIM, 'reflect' borders, 5-pixel crop, mean over channels) but built for
// many calls against one photo (the fit's thousands of steps, the grader's repeated grades).
// The mean reads the blurred moments only inside the cropped border, and a pixel there sees no
// reflected sample, so both separable passes run "valid": the vertical pass on the interior rows,
// the horizontal one on the interior columns, the three moments (x, x*x, x*y) in one sweep. The
// gradient planes are zero on the border, so the adjoint is the plain transposed blur (zero
// padding, no reflect fold).
// Inputs: a render [H, W, 3] (Float32Array or Float64Array) and an SsimTarget of the photo.
// Output: mean SSIM and, on request, d SSIM / d render [H, W, 3] (float64, into a caller buffer).
// Invariant: the same float64 operations in the same order as the full-plane reflect blur of
// metrics/gaussian.ts restricted to what the mean reads (bit-identical to the previous
// implementation; within 1e-12 of ssim.ts, tested); no allocation per call; not thread-safe
// (an SsimTarget owns its scratch planes).
import type { Floats } from '../scene/splats';
import { gaussianKernel } from './gaussian';
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

/** The same 11-tap dot product summed in window order, from 0 (c - 5 st first). */
function seq11(a: Float64Array, c: number, st: number): number {
  let sum = 0;
  for (let t = 0; t < 11; t++) sum += KERNEL[t] * a[c + (t - R) * st];
  return sum;
}

/**
 * The blurred moments of [H, W] planes at the interior pixels (rows and columns R..size-R-1):
 * vertical pass over the interior rows into [H - 2R, W] planes, then the horizontal pass into the
 * interior of [H, W] outputs (their border is never written).
 */
function blurInterior(h: number, w: number, srcs: readonly Float64Array[], vert: readonly Float64Array[], outs: readonly Float64Array[]): void {
  for (let k = 0; k < srcs.length; k++) {
    const src = srcs[k];
    const v = vert[k];
    for (let y = R; y < h - R; y++) {
      const o = (y - R) * w;
      const c = y * w;
      for (let x = 0; x < w; x++) v[o + x] = tap11(src, c + x, w);
    }
    const out = outs[k];
    for (let y = R; y < h - R; y++) {
      const o = (y - R) * w;
      const d = y * w;
      for (let x = R; x < w - R; x++) out[d + x] = tap11(v, o + x, 1);
    }
  }
}

/** Per-view constants of the photo plus scratch planes for one render at a time. */
export class SsimTarget {
  readonly width: number;
  readonly height: number;
  private readonly y: Float64Array[]; // 3 x [H, W] photo channels
  private readonly uy: Float64Array[]; // 3 x [H, W] blur(y), interior only
  private readonly uyy: Float64Array[]; // 3 x [H, W] blur(y * y), interior only
  // Scratch, [H, W]: x, x*x, x*y; their interior blurs; the upstream gradients (zero border).
  private readonly x: Float64Array;
  private readonly xx: Float64Array;
  private readonly xy: Float64Array;
  private readonly ux: Float64Array;
  private readonly uxx: Float64Array;
  private readonly uxy: Float64Array;
  private readonly gUx: Float64Array;
  private readonly gUxx: Float64Array;
  private readonly gUxy: Float64Array;
  private readonly vert: Float64Array[]; // 3 x [H - 2R, W] vertical-pass outputs
  private readonly rowPad: Float64Array[]; // 3 x [W + 2R] one zero-extended gradient row
  private readonly tPad: Float64Array[]; // 3 x [H + 2R, W] horizontal adjoints, R zero rows each side

  constructor(photo: { width: number; height: number; data: Floats }) {
    const { width: w, height: h } = photo;
    if (w < KERNEL.length || h < KERNEL.length) throw new Error(`SSIM needs images of at least ${KERNEL.length}x${KERNEL.length}, got ${w}x${h}`);
    this.width = w;
    this.height = h;
    const n = w * h;
    const plane = (): Float64Array => new Float64Array(n);
    this.x = plane();
    this.xx = plane();
    this.xy = plane();
    this.ux = plane();
    this.uxx = plane();
    this.uxy = plane();
    this.gUx = plane();
    this.gUxx = plane();
    this.gUxy = plane();
    this.vert = Array.from({ length: 3 }, () => new Float64Array((h - 2 * R) * w));
    this.rowPad = Array.from({ length: 3 }, () => new Float64Array(w + 2 * R));
    this.tPad = Array.from({ length: 3 }, () => new Float64Array((h + 2 * R) * w));
    this.y = [];
    this.uy = [];
    this.uyy = [];
    for (let c = 0; c < 3; c++) {
      const y = plane();
      for (let i = 0; i < n; i++) y[i] = photo.data[i * 3 + c];
      const yy = y.map((v) => v * v);
      const uy = plane();
      const uyy = plane();
      blurInterior(h, w, [y, yy], this.vert, [uy, uyy]);
      this.y.push(y);
      this.uy.push(uy);
      this.uyy.push(uyy);
    }
  }

  /**
   * Mean SSIM of `render` against the photo; when `grad` ([H, W, 3]) is given, writes
   * `gradScale * d SSIM / d render` into it (overwriting).
   */
  evaluate(render: Floats, grad?: Float64Array, gradScale = 1): number {
    const { width: w, height: h, x, xx, xy, ux, uxx, uxy, gUx, gUxx, gUxy } = this;
    const n = w * h;
    const count = (w - 2 * R) * (h - 2 * R);
    const scale = gradScale / (count * 3);
    let total = 0;
    for (let c = 0; c < 3; c++) {
      const y = this.y[c];
      for (let i = 0; i < n; i++) {
        const v = render[i * 3 + c];
        x[i] = v;
        xx[i] = v * v;
        xy[i] = v * y[i];
      }
      blurInterior(h, w, [x, xx, xy], this.vert, [ux, uxx, uxy]);
      // ssimMapSum writes every interior gradient pixel; the border stays zero from construction.
      const sum = ssimMapSum({ ux, uy: this.uy[c], uxx, uyy: this.uyy[c], uxy }, w, h, grad ? { ux: gUx, uxx: gUxx, uxy: gUxy, scale } : undefined);
      total += sum / count;
      if (grad) this.adjoint(y, grad, c);
    }
    return total / 3;
  }

  /**
   * grad[., c] = A^T gUx + 2 x A^T gUxx + y A^T gUxy with A the blur: the horizontal adjoint of
   * the interior rows (the others are zero), then the vertical adjoint, then the sum.
   */
  private adjoint(y: Float64Array, grad: Float64Array, c: number): void {
    const { width: w, height: h, x } = this;
    const g = [this.gUx, this.gUxx, this.gUxy];
    for (let k = 0; k < 3; k++) {
      const src = g[k];
      const pad = this.rowPad[k];
      const t = this.tPad[k];
      for (let yy = R; yy < h - R; yy++) {
        const o = yy * w;
        for (let xx = 0; xx < w; xx++) pad[R + xx] = src[o + xx];
        const d = (yy + R) * w;
        for (let xx = 0; xx < w; xx++) t[d + xx] = tap11(pad, xx + R, 1);
      }
    }
    // Vertical adjoints into ux, uxx, uxy (free once the map is summed), one plane at a time.
    // Rows whose window reaches below the image sum in window order (as the reflect blur's
    // border rows did); the others in tap11's symmetric order (equal to it where the window
    // reaches above the image, whose rows are zero).
    const seqFrom = Math.max(R, h - R);
    const outs = [this.ux, this.uxx, this.uxy];
    for (let k = 0; k < 3; k++) {
      const t = this.tPad[k];
      const out = outs[k];
      for (let yy = 0; yy < seqFrom; yy++) {
        const o = yy * w;
        const cc = (yy + R) * w;
        for (let xx = 0; xx < w; xx++) out[o + xx] = tap11(t, cc + xx, w);
      }
      for (let yy = seqFrom; yy < h; yy++) {
        const o = yy * w;
        const cc = (yy + R) * w;
        for (let xx = 0; xx < w; xx++) out[o + xx] = seq11(t, cc + xx, w);
      }
    }
    const [aUx, aUxx, aUxy] = outs;
    const n = w * h;
    for (let i = 0; i < n; i++) grad[i * 3 + c] = aUx[i] + 2 * x[i] * aUxx[i] + y[i] * aUxy[i];
  }
}
