// Fast SSIM against a fixed photo, and its gradient: the same value as ssim.ts (scikit-image's
// gaussian-weighted SSIM, 'reflect' borders, 5-pixel crop, mean over channels) but built for
// many calls against one photo (the fit's thousands of steps, the grader's repeated grades).
// The mean reads the blurred moments only inside the cropped border, and a pixel there sees no
// reflected sample, so both separable passes run "valid": the vertical pass on the interior rows,
// the horizontal one on the interior columns, the three moments (x, x*x, x*y) in one sweep. The
// gradient planes are zero on the border, so the adjoint is the plain transposed blur (zero
// padding, no reflect fold). The blurs slide the 11-tap window along rows and down columns in
// locals (one load per output; issue 40 item 1), the float operations of the previous per-pixel dot
// product in its order.
// Inputs: a render [H, W, 3] (Float32Array or Float64Array) and an SsimTarget of the photo.
// Output: mean SSIM and, on request, d SSIM / d render [H, W, 3] (float64, into a caller buffer);
// evaluateRows gives one band of rows of the same (the fit's step in bands, issue 40).
// Invariant: the same float64 operations in the same order as the full-plane reflect blur of
// metrics/gaussian.ts restricted to what the mean reads (bit-identical to the previous
// implementation; within 1e-12 of ssim.ts, tested); no allocation per call after the second; the
// scratch planes are per thread and size (one evaluation at a time: evaluate is synchronous).
// The photo's own planes (its channels and their blurs, 9 float64 planes) are kept from a
// target's second evaluation on: the first computes them into the thread's scratch planes, so a
// one-shot grade (a cold `splatlab grade`: 8 targets, one evaluation each) touches no fresh
// memory per view, which costs more than the arithmetic here (docs/PERFORMANCE.md, issue 40 item 3).
// The photo must not change while its target lives (the target reads it again for its planes).
import type { Floats } from '../scene/splats';
import { gaussianKernel } from './gaussian';
import { ssimMapSum, SSIM_SIGMA, SSIM_TRUNCATE } from './ssim';

const KERNEL = gaussianKernel(SSIM_SIGMA, SSIM_TRUNCATE);
const R = (KERNEL.length - 1) / 2;

if (KERNEL.length !== 11) throw new Error(`SsimTarget expects an 11-tap window, got ${KERNEL.length}`);
// The window is symmetric (k[t] = k[10 - t]), so each output needs 6 multiplies instead of 11.
const [K0, K1, K2, K3, K4, K5] = KERNEL;

/**
 * The symmetric 11-tap dot product along a line: out[o + i * os] = K5 a[c'] + K4 (a[c' - st] +
 * a[c' + st]) + ... + K0 (a[c' - 5 st] + a[c' + 5 st]) with c' = c + i * st, for i in [0, count);
 * the window slides in locals, so each output loads one new sample instead of eleven.
 */
function slide11(a: Float64Array, c: number, st: number, out: Float64Array, o: number, os: number, count: number): void {
  if (count <= 0) return;
  let a0 = a[c - 5 * st], a1 = a[c - 4 * st], a2 = a[c - 3 * st], a3 = a[c - 2 * st], a4 = a[c - st], a5 = a[c];
  let a6 = a[c + st], a7 = a[c + 2 * st], a8 = a[c + 3 * st], a9 = a[c + 4 * st], a10 = a[c + 5 * st];
  let next = c + 6 * st;
  for (let i = 0; ; i++) {
    out[o + i * os] = K5 * a5 + K4 * (a4 + a6) + K3 * (a3 + a7) + K2 * (a2 + a8) + K1 * (a1 + a9) + K0 * (a0 + a10);
    if (i + 1 >= count) return;
    a0 = a1; a1 = a2; a2 = a3; a3 = a4; a4 = a5; a5 = a6; a6 = a7; a7 = a8; a8 = a9; a9 = a10;
    a10 = a[next];
    next += st;
  }
}

/** The same 11-tap dot product summed in window order, from 0 (c - 5 st first). */
function seq11(a: Float64Array, c: number, st: number): number {
  let sum = 0;
  for (let t = 0; t < 11; t++) sum += KERNEL[t] * a[c + (t - R) * st];
  return sum;
}

/**
 * The blurred moments of [H, W] planes at the interior pixels of rows [r0, r1) (default every
 * interior row R..size-R-1): vertical pass over those rows into [H - 2R, W] planes, then the
 * horizontal pass into the interior of [H, W] outputs (their border is never written).
 */
function blurInterior(h: number, w: number, srcs: readonly Float64Array[], vert: readonly Float64Array[], outs: readonly Float64Array[], r0 = R, r1 = h - R): void {
  for (let k = 0; k < srcs.length; k++) {
    const src = srcs[k];
    const v = vert[k];
    // Down each column (the window slides along it), then along each row.
    for (let x = 0; x < w; x++) slide11(src, r0 * w + x, w, v, (r0 - R) * w + x, w, r1 - r0);
    const out = outs[k];
    for (let y = r0; y < r1; y++) slide11(v, (y - R) * w + R, 1, out, y * w + R, 1, w - 2 * R);
  }
}

/**
 * Scratch planes for one evaluation at a time, shared by every SsimTarget of one size on this
 * thread (a grade holds 8 targets, a fit 8: one set instead of one each). [H, W] planes: x, x*x,
 * x*y; their interior blurs (also the adjoints' outputs); the upstream gradients, whose border is
 * never written and stays zero. The adjoint's planes are allocated on the first gradient, the
 * photo's (one channel, for first evaluations) on the first evaluation.
 */
class Scratch {
  readonly x: Float64Array;
  readonly xx: Float64Array;
  readonly xy: Float64Array;
  readonly ux: Float64Array;
  readonly uxx: Float64Array;
  readonly uxy: Float64Array;
  readonly vert: Float64Array[]; // 3 x [H - 2R, W] vertical-pass outputs
  readonly sums = new Float64Array(3); // per-channel map sums of evaluate()
  private adjointPlanes: { g: Float64Array[]; tPad: Float64Array[] } | null = null;
  private photoPlanes: PhotoPlanes | null = null;

  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    const plane = (): Float64Array => new Float64Array(w * h);
    this.x = plane();
    this.xx = plane();
    this.xy = plane();
    this.ux = plane();
    this.uxx = plane();
    this.uxy = plane();
    this.vert = Array.from({ length: 3 }, () => new Float64Array((h - 2 * R) * w));
  }

  /** gUx, gUxx, gUxy [H, W] (zero border); 3 x [H + 2R, W] horizontal adjoints with R zero rows each side. */
  get adjoint(): { g: Float64Array[]; tPad: Float64Array[] } {
    const { w, h } = this;
    this.adjointPlanes ??= {
      g: Array.from({ length: 3 }, () => new Float64Array(w * h)),
      tPad: Array.from({ length: 3 }, () => new Float64Array((h + 2 * R) * w)),
    };
    return this.adjointPlanes;
  }

  /** One photo channel and its interior blurs, for a target's first evaluation (allocated on first use). */
  get photo(): PhotoPlanes {
    const n = this.w * this.h;
    this.photoPlanes ??= { y: new Float64Array(n), uy: new Float64Array(n), uyy: new Float64Array(n) };
    return this.photoPlanes;
  }
}

/** A photo channel [H, W] and the interior of its blurs blur(y), blur(y * y). */
interface PhotoPlanes {
  y: Float64Array;
  uy: Float64Array;
  uyy: Float64Array;
}

const scratches = new Map<string, Scratch>();

function scratchFor(w: number, h: number): Scratch {
  const key = `${w}x${h}`;
  let s = scratches.get(key);
  if (!s) {
    s = new Scratch(w, h);
    scratches.set(key, s);
  }
  return s;
}

/** Per-view constants of the photo; evaluations use this thread's scratch planes of its size. */
export class SsimTarget {
  readonly width: number;
  readonly height: number;
  private readonly photo: Floats; // [H, W, 3]
  /** The photo's planes per channel, kept from the second evaluation on (null before). */
  private planes: PhotoPlanes[] | null = null;
  private evaluations = 0;
  private readonly s: Scratch;

  constructor(photo: { width: number; height: number; data: Floats }) {
    const { width: w, height: h } = photo;
    if (w < KERNEL.length || h < KERNEL.length) throw new Error(`SSIM needs images of at least ${KERNEL.length}x${KERNEL.length}, got ${w}x${h}`);
    if (photo.data.length !== w * h * 3) throw new Error(`SSIM photo has ${photo.data.length} values for ${w}x${h}x3`);
    this.width = w;
    this.height = h;
    this.photo = photo.data;
    this.s = scratchFor(w, h);
  }

  /**
   * Channel c's y and y * y at the flat pixels [i0, i1) into y and yy, and their blurs at the
   * interior rows [m0, m1) into uy and uyy (the rows' windows read only pixels in [i0, i1)).
   */
  private photoChannel(c: number, y: Float64Array, yy: Float64Array, uy: Float64Array, uyy: Float64Array, i0: number, i1: number, m0: number, m1: number): void {
    const data = this.photo;
    for (let i = i0; i < i1; i++) {
      const v = data[i * 3 + c];
      y[i] = v;
      yy[i] = v * v;
    }
    if (m0 < m1) blurInterior(this.height, this.width, [y, yy], this.s.vert, [uy, uyy], m0, m1);
  }

  /** The kept planes: every channel's y and its blurs over the whole image (yy in scratch). */
  private keptPlanes(): PhotoPlanes[] {
    const { width: w, height: h } = this;
    const n = w * h;
    return [0, 1, 2].map((c) => {
      const p = { y: new Float64Array(n), uy: new Float64Array(n), uyy: new Float64Array(n) };
      this.photoChannel(c, p.y, this.s.x, p.uy, p.uyy, 0, n, R, h - R);
      return p;
    });
  }

  /**
   * Mean SSIM of `render` against the photo; when `grad` ([H, W, 3]) is given, writes
   * `gradScale * d SSIM / d render` into it (overwriting).
   */
  evaluate(render: Floats, grad?: Float64Array, gradScale = 1): number {
    const sums = this.s.sums;
    this.evaluateRows(render, 0, this.height, sums, grad, gradScale);
    const count = (this.width - 2 * R) * (this.height - 2 * R);
    let total = 0;
    for (let c = 0; c < 3; c++) total += sums[c] / count;
    return total / 3;
  }

  /**
   * One band of rows [y0, y1) of `evaluate` (the fit's step splits the image in bands over
   * threads): writes each channel's SSIM map sum over the band's interior rows into sums[0..2]
   * and, with `grad`, `gradScale * d SSIM / d render` at the band's rows (the whole gradient is
   * the bands' union; the mean is the bands' sums over the interior count, channel by channel).
   * Reads the render's rows within 2R of the band. Every pixel gets the same float operations as
   * a whole-image evaluation.
   */
  evaluateRows(render: Floats, y0: number, y1: number, sums: Float64Array, grad?: Float64Array, gradScale = 1): void {
    const { width: w, height: h } = this;
    const { x, xx, xy, ux, uxx, uxy } = this.s;
    const [gUx, gUxx, gUxy] = grad ? this.s.adjoint.g : [ux, uxx, uxy];
    const count = (w - 2 * R) * (h - 2 * R);
    const scale = gradScale / (count * 3);
    // Map rows: the band's own (summed), and with a gradient the interior rows within R of it
    // (their map gradients reach the band through the adjoint blur).
    const own0 = Math.max(R, y0);
    const own1 = Math.min(h - R, y1);
    const m0 = grad ? Math.max(R, y0 - R) : own0;
    const m1 = grad ? Math.min(h - R, y1 + R) : own1;
    const i0 = Math.min(Math.max(0, m0 - R) * w, y0 * w);
    const i1 = Math.min(h, Math.max(m1 + R, y1)) * w;
    // The first evaluation computes the photo's planes at the rows it reads into scratch planes;
    // the second keeps them whole (the same floats either way).
    if (this.evaluations++ === 1) this.planes = this.keptPlanes();
    for (let c = 0; c < 3; c++) {
      let photo: PhotoPlanes;
      if (this.planes) {
        photo = this.planes[c];
      } else {
        // y * y goes into ux, which the render's blur below overwrites once it has been read.
        photo = this.s.photo;
        this.photoChannel(c, photo.y, ux, photo.uy, photo.uyy, i0, i1, m0, m1);
      }
      const y = photo.y;
      for (let i = i0; i < i1; i++) {
        const v = render[i * 3 + c];
        x[i] = v;
        xx[i] = v * v;
        xy[i] = v * y[i];
      }
      sums[c] = 0;
      if (m0 >= m1) {
        if (grad) this.adjoint(y, grad, c, y0, y1, m0, m0);
        continue;
      }
      blurInterior(h, w, [x, xx, xy], this.s.vert, [ux, uxx, uxy], m0, m1);
      // ssimMapSum writes every gradient pixel of its rows; the border stays zero from construction.
      const moments = { ux, uy: photo.uy, uxx, uyy: photo.uyy, uxy };
      const g = grad ? { ux: gUx, uxx: gUxx, uxy: gUxy, scale } : undefined;
      if (g && m0 < own0) ssimMapSum(moments, w, h, g, [m0, own0]);
      if (own0 < own1) sums[c] = ssimMapSum(moments, w, h, g, [own0, own1]);
      if (g && Math.max(own1, m0) < m1) ssimMapSum(moments, w, h, g, [Math.max(own1, m0), m1]);
      if (grad) this.adjoint(y, grad, c, y0, y1, m0, m1);
    }
  }

  /**
   * grad[., c] at rows [y0, y1) = A^T gUx + 2 x A^T gUxx + y A^T gUxy with A the blur: the
   * horizontal adjoint of the map rows [m0, m1) (the interior rows within R of the band; the
   * others are zero), then the vertical adjoint, then the sum.
   */
  private adjoint(y: Float64Array, grad: Float64Array, c: number, y0: number, y1: number, m0: number, m1: number): void {
    const { width: w, height: h } = this;
    const { x } = this.s;
    const { g, tPad } = this.s.adjoint;
    for (let k = 0; k < 3; k++) {
      const src = g[k];
      const t = tPad[k];
      // A map row's window beyond its ends reads the neighbouring rows' border columns, which
      // are zero (never written), as a zero-extended row would be.
      for (let yy = m0; yy < m1; yy++) slide11(src, yy * w, 1, t, (yy + R) * w, 1, w);
    }
    // Vertical adjoints into ux, uxx, uxy (free once the map is summed), one plane at a time.
    // Rows whose window reaches below the image sum in window order (as the reflect blur's
    // border rows did); the others in slide11's symmetric order (equal to it where the window
    // reaches above the image, whose rows are zero). The rows read are the map rows written
    // above or rows outside the interior, never written (zero).
    const seqFrom = Math.max(R, h - R);
    const outs = [this.s.ux, this.s.uxx, this.s.uxy];
    for (let k = 0; k < 3; k++) {
      const t = tPad[k];
      const out = outs[k];
      const rows = Math.min(y1, seqFrom) - y0;
      for (let xx = 0; xx < w; xx++) slide11(t, (y0 + R) * w + xx, w, out, y0 * w + xx, w, rows);
      for (let yy = Math.max(y0, seqFrom); yy < y1; yy++) {
        const o = yy * w;
        const cc = (yy + R) * w;
        for (let xx = 0; xx < w; xx++) out[o + xx] = seq11(t, cc + xx, w);
      }
    }
    const [aUx, aUxx, aUxy] = outs;
    for (let i = y0 * w; i < y1 * w; i++) grad[i * 3 + c] = aUx[i] + 2 * x[i] * aUxx[i] + y[i] * aUxy[i];
  }
}
