// Fast SSIM against a fixed photo, and its gradient: the same value as ssim.ts (scikit-image's
// gaussian-weighted SSIM, 'reflect' borders, 5-pixel crop, mean over channels) but built for
// many calls against one photo (the fit's thousands of steps, the grader's repeated grades).
// The mean reads the blurred moments only inside the cropped border, and a pixel there sees no
// reflected sample, so both separable passes run "valid": the vertical pass on the interior rows,
// the horizontal one on the interior columns, the three moments (x, x*x, x*y) in one sweep. The
// gradient planes are zero on the border, so the adjoint is the plain transposed blur (zero
// padding, no reflect fold). The blurs slide the 11-tap window along rows and down columns in
// locals (one load per output; issue 40 item 1), the float operations of the previous per-pixel dot
// product in its order; where WebAssembly runs, the blurs, their adjoints and the map sum run as
// f64x2 kernels on planes in the kernels' memory, two outputs a vector with the same operations in
// the same order (ssim-lines.ts), so the results are the same bit for bit.
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
import { ssimMapSum } from './ssim';
import { jsLines, SSIM_KERNEL, wasmLines, type Lines11, type WasmLines } from './ssim-lines';

const R = (SSIM_KERNEL.length - 1) / 2;

/**
 * The blurred moments of [H, W] planes at the interior pixels of rows [r0, r1) (default every
 * interior row R..size-R-1): vertical pass over those rows into [H - 2R, W] planes, then the
 * horizontal pass into the interior of [H, W] outputs (their border is never written).
 */
function blurInterior(h: number, w: number, lines: Lines11, srcs: readonly Float64Array[], vert: readonly Float64Array[], outs: readonly Float64Array[], r0 = R, r1 = h - R): void {
  for (let k = 0; k < srcs.length; k++) {
    // Down the columns, then along the rows.
    lines.vsym(srcs[k], r0 * w, vert[k], (r0 - R) * w, w, r1 - r0);
    lines.hsym(vert[k], (r0 - R) * w + R, outs[k], r0 * w + R, w - 2 * R, r1 - r0);
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
  readonly lines: Lines11;
  readonly engine: WasmLines | null;
  private readonly alloc: (n: number) => Float64Array;
  private adjointPlanes: { g: Float64Array[]; tPad: Float64Array[] } | null = null;
  private photoPlanes: PhotoPlanes | null = null;

  constructor(
    readonly w: number,
    readonly h: number,
    wasm: boolean,
  ) {
    // Every plane below (15 of [H, W] in all, 18 with a first evaluation's photo planes) and the
    // photo moments of up to TARGET_SLOTS kept targets (6 planes each), in the wasm passes'
    // memory where it runs.
    const n = w * h;
    const slots = Math.max(0, Math.min(TARGET_SLOTS, Math.floor((MAX_FLOATS - 18 * n) / (6 * n))));
    const engine = wasm ? wasmLines(w, (18 + 6 * slots) * n) : null;
    this.engine = engine;
    this.lines = engine?.lines ?? jsLines(w);
    this.alloc = (n) => engine?.plane(n) ?? new Float64Array(n);
    const plane = (): Float64Array => this.alloc(w * h);
    this.x = plane();
    this.xx = plane();
    this.xy = plane();
    this.ux = plane();
    this.uxx = plane();
    this.uxy = plane();
    this.vert = Array.from({ length: 3 }, () => this.alloc((h - 2 * R) * w));
  }

  /** gUx, gUxx, gUxy [H, W] (zero border); 3 x [H + 2R, W] horizontal adjoints with R zero rows each side. */
  get adjoint(): { g: Float64Array[]; tPad: Float64Array[] } {
    const { w, h } = this;
    this.adjointPlanes ??= {
      g: Array.from({ length: 3 }, () => this.alloc(w * h)),
      tPad: Array.from({ length: 3 }, () => this.alloc((h + 2 * R) * w)),
    };
    return this.adjointPlanes;
  }

  /** One photo channel and its interior blurs, for a target's first evaluation (allocated on first use). */
  get photo(): PhotoPlanes {
    const n = this.w * this.h;
    this.photoPlanes ??= { y: this.alloc(n), uy: this.alloc(n), uyy: this.alloc(n) };
    return this.photoPlanes;
  }
}

/** A photo channel [H, W] and the interior of its blurs blur(y), blur(y * y). */
interface PhotoPlanes {
  y: Float64Array;
  uy: Float64Array;
  uyy: Float64Array;
}

/** Targets of one size whose photo moments live in the wasm memory (a fit and a grade hold 8). */
const TARGET_SLOTS = 16;
/** The wasm memory's planes stay within 1 GiB (its byte addresses are signed 32-bit). */
const MAX_FLOATS = 1 << 27;

/** Gives a collected target's wasm planes back to its engine. */
const releasePlanes = new FinalizationRegistry<{ engine: WasmLines; planes: Float64Array[] }>(({ engine, planes }) => {
  for (const p of planes) engine.release(p);
});

const scratches = new Map<string, Scratch>();
let useWasm = true;

/**
 * Whether SsimTargets made from now on run their passes in wasm SIMD where it runs (the default)
 * or in JS (the reference: tests and benches compare the two; results are the same bit for bit).
 */
export function setSsimWasm(on: boolean): void {
  useWasm = on;
}

function scratchFor(w: number, h: number): Scratch {
  const key = `${w}x${h}${useWasm ? ' wasm' : ''}`;
  let s = scratches.get(key);
  if (!s) {
    s = new Scratch(w, h, useWasm);
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
    if (w < SSIM_KERNEL.length || h < SSIM_KERNEL.length) throw new Error(`SSIM needs images of at least ${SSIM_KERNEL.length}x${SSIM_KERNEL.length}, got ${w}x${h}`);
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
    if (m0 < m1) blurInterior(this.height, this.width, this.s.lines, [y, yy], this.s.vert, [uy, uyy], m0, m1);
  }

  /**
   * The kept planes: every channel's y and its blurs over the whole image (yy in scratch); the
   * blurs in the wasm memory where there is room (mapSum reads them there), given back when this
   * target is collected.
   */
  private keptPlanes(): PhotoPlanes[] {
    const { width: w, height: h } = this;
    const n = w * h;
    const { engine } = this.s;
    const wasmPlanes: Float64Array[] = [];
    const moment = (): Float64Array => {
      const p = engine?.plane(n)?.fill(0);
      if (!p) return new Float64Array(n);
      wasmPlanes.push(p);
      return p;
    };
    const planes = [0, 1, 2].map((c) => {
      const p = { y: new Float64Array(n), uy: moment(), uyy: moment() };
      this.photoChannel(c, p.y, this.s.x, p.uy, p.uyy, 0, n, R, h - R);
      return p;
    });
    if (engine && wasmPlanes.length > 0) releasePlanes.register(this, { engine, planes: wasmPlanes });
    return planes;
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
    const mapSum = this.s.engine?.mapSum ?? ssimMapSum;
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
      blurInterior(h, w, this.s.lines, [x, xx, xy], this.s.vert, [ux, uxx, uxy], m0, m1);
      // ssimMapSum writes every gradient pixel of its rows; the border stays zero from construction.
      const moments = { ux, uy: photo.uy, uxx, uyy: photo.uyy, uxy };
      const g = grad ? { ux: gUx, uxx: gUxx, uxy: gUxy, scale } : undefined;
      if (g && m0 < own0) mapSum(moments, w, h, g, [m0, own0]);
      if (own0 < own1) sums[c] = mapSum(moments, w, h, g, [own0, own1]);
      if (g && Math.max(own1, m0) < m1) mapSum(moments, w, h, g, [Math.max(own1, m0), m1]);
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
    const lines = this.s.lines;
    // A map row's window beyond its ends reads the neighbouring rows' border columns, which are
    // zero (never written), as a zero-extended row would be.
    for (let k = 0; k < 3; k++) lines.hsym(g[k], m0 * w, tPad[k], (m0 + R) * w, w, m1 - m0);
    // Vertical adjoints into ux, uxx, uxy (free once the map is summed), one plane at a time.
    // Rows whose window reaches below the image sum in window order (as the reflect blur's
    // border rows did); the others in slide11's symmetric order (equal to it where the window
    // reaches above the image, whose rows are zero). The rows read are the map rows written
    // above or rows outside the interior, never written (zero).
    const seqFrom = Math.max(R, h - R);
    const outs = [this.s.ux, this.s.uxx, this.s.uxy];
    const s0 = Math.max(y0, seqFrom);
    for (let k = 0; k < 3; k++) {
      lines.vsym(tPad[k], (y0 + R) * w, outs[k], y0 * w, w, Math.min(y1, seqFrom) - y0);
      lines.vseq(tPad[k], (s0 + R) * w, outs[k], s0 * w, w, y1 - s0);
    }
    const [aUx, aUxx, aUxy] = outs;
    for (let i = y0 * w; i < y1 * w; i++) grad[i * 3 + c] = aUx[i] + 2 * x[i] * aUxx[i] + y[i] * aUxy[i];
  }
}
