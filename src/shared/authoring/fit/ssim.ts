// SSIM and its gradient for the fit loop: the same value as metrics/ssim.ts (scikit-image's
// gaussian-weighted SSIM, 'reflect' borders, 5-pixel crop, mean over channels) but built for
// thousands of calls: the target's blurred planes are computed once per view, blurs use
// precomputed reflect tables instead of a modulo per tap, and scratch planes are reused.
// Inputs: a render [H, W, 3] (Float32Array or Float64Array) and an SsimTarget of the photo.
// Output: mean SSIM and d SSIM / d render [H, W, 3] (float64, written into a caller buffer).
// Invariant: agrees with metrics/ssim.ts ssimWithGrad to ~1e-12 (tested); not thread-safe
// (an SsimTarget owns its scratch planes).
import type { Floats } from '../../scene/splats';
import { gaussianKernel, reflectIndex } from '../../metrics/gaussian';
import { SSIM_K1, SSIM_K2, SSIM_SIGMA, SSIM_TRUNCATE } from '../../metrics/ssim';

const KERNEL = gaussianKernel(SSIM_SIGMA, SSIM_TRUNCATE);
const R = (KERNEL.length - 1) / 2;
const C1 = SSIM_K1 * SSIM_K1;
const C2 = SSIM_K2 * SSIM_K2;

/** Reflect-padded index tables: row `pos` lists the source index of each tap, [n, taps]. */
function reflectTable(n: number): Int32Array {
  const t = new Int32Array(n * KERNEL.length);
  for (let pos = 0; pos < n; pos++) for (let k = 0; k < KERNEL.length; k++) t[pos * KERNEL.length + k] = reflectIndex(pos + k - R, n);
  return t;
}

/** Separable blur (or its adjoint) of [H, W] planes with scratch space; blur = rows pass then columns pass. */
class Blurrer {
  private readonly rowsTable: Int32Array; // [H, taps] source row per output row
  private readonly colsTable: Int32Array; // [W, taps] source column per output column
  private readonly tmp: Float64Array; // [H, W]

  constructor(
    readonly h: number,
    readonly w: number,
  ) {
    this.rowsTable = reflectTable(h);
    this.colsTable = reflectTable(w);
    this.tmp = new Float64Array(h * w);
  }

  /** out = blur(src): vertical then horizontal, as metrics/gaussian.ts blur. */
  blur(src: Float64Array, out: Float64Array): void {
    const { h, w, tmp, rowsTable, colsTable } = this;
    const taps = KERNEL.length;
    tmp.fill(0);
    for (let y = 0; y < h; y++) {
      const o = y * w;
      for (let t = 0; t < taps; t++) {
        const k = KERNEL[t];
        const s = rowsTable[y * taps + t] * w;
        for (let x = 0; x < w; x++) tmp[o + x] += k * src[s + x];
      }
    }
    for (let y = 0; y < h; y++) {
      const o = y * w;
      for (let x = 0; x < w; x++) {
        let acc = 0;
        const base = x * taps;
        for (let t = 0; t < taps; t++) acc += KERNEL[t] * tmp[o + colsTable[base + t]];
        out[o + x] = acc;
      }
    }
  }

  /** out = blur^T(src): horizontal adjoint then vertical adjoint. */
  blurAdjoint(src: Float64Array, out: Float64Array): void {
    const { h, w, tmp, rowsTable, colsTable } = this;
    const taps = KERNEL.length;
    tmp.fill(0);
    for (let y = 0; y < h; y++) {
      const o = y * w;
      for (let x = 0; x < w; x++) {
        const v = src[o + x];
        if (v === 0) continue;
        const base = x * taps;
        for (let t = 0; t < taps; t++) tmp[o + colsTable[base + t]] += KERNEL[t] * v;
      }
    }
    out.fill(0);
    for (let y = 0; y < h; y++) {
      const o = y * w;
      for (let t = 0; t < taps; t++) {
        const k = KERNEL[t];
        const d = rowsTable[y * taps + t] * w;
        for (let x = 0; x < w; x++) out[d + x] += k * tmp[o + x];
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
      let sum = 0;
      for (let yy = R; yy < h - R; yy++) {
        for (let xc = R; xc < w - R; xc++) {
          const i = yy * w + xc;
          const mx = ux[i];
          const my = uy[i];
          const a1 = 2 * mx * my + C1;
          const a2 = 2 * (uxy[i] - mx * my) + C2;
          const b1 = mx * mx + my * my + C1;
          const b2 = uxx[i] - mx * mx + (uyy[i] - my * my) + C2;
          const d = b1 * b2;
          const s = (a1 * a2) / d;
          sum += s;
          if (grad) {
            gUx[i] = (scale * (2 * my * (a2 - a1) - 2 * mx * s * (b2 - b1))) / d;
            gUxx[i] = (-scale * s) / b2;
            gUxy[i] = (scale * 2 * a1) / d;
          }
        }
      }
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
