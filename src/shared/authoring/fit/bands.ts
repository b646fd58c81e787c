// The fit's step split in row bands (issue 40 item 1, docs/PERFORMANCE.md "Reference fit"): the
// image is cut into FIT_BANDS bands of rows (where the work splits evenly), and each band's forward composite, loss (L1, SSIM and
// silhouette with their gradients) and compositing backward run on whichever thread claims it,
// over shared memory (a BandFrame). A band renders the rows within 10 of itself too (SSIM's window
// and its adjoint's), so no band waits for another. The leader sums the bands' per-Gaussian sums
// in band order.
// Inputs: the fit's views (each thread builds its own LossTargets) and, per step, the projected
// scene the leader writes into the frame. Outputs: per band, the loss sums and ProjectionGrads.
// Invariant: a band's results depend only on the frame's inputs, never on the thread that ran it
// or how many threads there are, so a fit is bit-identical on one thread or several. Against the
// one-pass backend (backend.ts) every pixel's image and loss gradient is the same float; each
// Gaussian's gradient is the sum of its bands' sums instead of one running sum (equal to
// rounding; the fit's loss curve within 1e-6: test/shared/authoring/fit/bands.test.ts).
import type { RgbImage } from '../../image/image';
import { compositeFrontToBack, compositePlanes, type CompositePlanes } from '../../raster/cpu/composite';
import { BACKGROUND } from '../../raster/cpu/rasterize-forward';
import { pixelRange } from '../../raster/cpu/camera-math';
import { backwardScratch, rasterizeBackwardPixels, TERMS, type BackwardScratch, type ProjectionGrads, type TermRecord } from '../../raster/cpu/rasterize-backward';
import { LOSS_SUMS, LossTarget, type LossParts } from './loss';

/** Bands of a step: one per core of the machines the lab targets (two); fixed so results never depend on the thread count. */
export const FIT_BANDS = 2;
/** Rows a band renders beyond its own on each side: SSIM's radius (5) for the map, again for its adjoint. */
const HALO = 10;

/** ctrl slots: the step's generation, the next band to claim, bands done, quit, the view, Gaussians in the order, gradient wanted, Gaussians. */
export const CTRL = { gen: 0, claim: 1, done: 2, quit: 3, view: 4, ordered: 5, withGrad: 6, count: 7, bandDone: 8, used: 8 + FIT_BANDS, runs: 8 + 2 * FIT_BANDS, cuts: 8 + 3 * FIT_BANDS } as const;

/** A step's shared memory: the projected scene in, each band's sums out. Every array lies on a SharedArrayBuffer. */
export interface BandFrame {
  ctrl: Int32Array; // [CTRL.cuts + FIT_BANDS + 1]; per band: done flag, terms used, runs recorded; the row cuts
  order: Int32Array; // [N] depth order (CTRL.ordered used)
  radii: Int32Array; // [N, 2]
  means2d: Float64Array; // [N, 2]
  conics: Float64Array; // [N, 3]
  colors: Float64Array; // [N, 3]
  opacities: Float64Array; // [N]
  grads: Float64Array; // [FIT_BANDS, 9 N]: v_means2d (2N), v_conics (3N), v_colors (3N), v_opacities (N)
  sums: Float64Array; // [FIT_BANDS, LOSS_SUMS]
  terms: Float64Array[]; // per band: the TermRecord terms of the Gaussians begun in a band above (none for band 0)
  runs: Int32Array[]; // per band: the TermRecord runs
}

/** A frame for n Gaussians whose bands keep up to `termCapacity` doubles of terms each. */
export function allocBandFrame(n: number, termCapacity: number): BandFrame {
  const i32 = (len: number): Int32Array => new Int32Array(new SharedArrayBuffer(Math.max(1, len) * 4));
  const f64 = (len: number): Float64Array => new Float64Array(new SharedArrayBuffer(Math.max(1, len) * 8));
  const ctrl = i32(CTRL.cuts + FIT_BANDS + 1);
  // Nothing to claim until the leader posts the first step.
  ctrl[CTRL.claim] = FIT_BANDS;
  return {
    ctrl,
    order: i32(n),
    radii: i32(n * 2),
    means2d: f64(n * 2),
    conics: f64(n * 3),
    colors: f64(n * 3),
    opacities: f64(n),
    grads: f64(FIT_BANDS * 9 * n),
    sums: f64(FIT_BANDS * LOSS_SUMS),
    terms: Array.from({ length: FIT_BANDS }, (_, b) => f64(b === 0 ? 0 : termCapacity)),
    runs: Array.from({ length: FIT_BANDS }, (_, b) => i32(b === 0 ? 0 : 2 * n)),
  };
}

/** Rows [y0, y1) of band b of the frame's step (the cuts the leader chose). */
export function bandRows(frame: BandFrame, b: number): [number, number] {
  return [frame.ctrl[CTRL.cuts + b], frame.ctrl[CTRL.cuts + b + 1]];
}

/** A pixel's work against a Gaussian box pixel's, per row (the loss' per-pixel cost is about this many box pixels' composite and backward). */
const PIXEL_WEIGHT = 7;

/**
 * Writes into ctrl[CTRL.cuts ..] the row cuts that give the bands about equal work: each row
 * weighs PIXEL_WEIGHT per pixel plus the width of every Gaussian box over it. Any cuts give the
 * same results (the terms' fold), so these only balance the threads.
 */
export function balanceCuts(frame: BandFrame, width: number, height: number, rowCost: Float64Array): void {
  const { ctrl, order, means2d, radii } = frame;
  rowCost.fill(PIXEL_WEIGHT * width, 0, height);
  for (let r = 0; r < ctrl[CTRL.ordered]; r++) {
    const g = order[r];
    const box = pixelRange(means2d[g * 2], means2d[g * 2 + 1], radii[g * 2], radii[g * 2 + 1], width, height);
    for (let y = box.y0; y <= box.y1; y++) rowCost[y] += box.x1 - box.x0 + 1;
  }
  let total = 0;
  for (let y = 0; y < height; y++) total += rowCost[y];
  ctrl[CTRL.cuts] = 0;
  let y = 0;
  let acc = 0;
  for (let b = 1; b < FIT_BANDS; b++) {
    const goal = (total * b) / FIT_BANDS;
    while (y < height && acc + rowCost[y] <= goal) acc += rowCost[y++];
    ctrl[CTRL.cuts + b] = y;
  }
  ctrl[CTRL.cuts + FIT_BANDS] = height;
}

/** Band b's slice of the frame's gradient sums, as ProjectionGrads of n Gaussians. */
export function bandGrads(frame: BandFrame, n: number, b: number): ProjectionGrads {
  const base = b * 9 * n;
  const part = (from: number, len: number): Float64Array => frame.grads.subarray(base + from * n, base + (from + len) * n);
  return { v_means2d: part(0, 2), v_conics: part(2, 3), v_colors: part(5, 3), v_opacities: part(8, 1) };
}

/** Whether every band's terms and runs fit its frame's capacity (else the step must be rerun on a larger frame). */
export function termsFit(frame: BandFrame): boolean {
  for (let b = 1; b < FIT_BANDS; b++) {
    if (frame.ctrl[CTRL.used + b] > frame.terms[b].length || frame.ctrl[CTRL.runs + b] * 2 > frame.runs[b].length) return false;
  }
  return true;
}

/** The most term doubles a band of the last step needed. */
export function termsNeeded(frame: BandFrame): number {
  let most = 0;
  for (let b = 1; b < FIT_BANDS; b++) most = Math.max(most, frame.ctrl[CTRL.used + b]);
  return most;
}

/**
 * The whole image's ProjectionGrads from the bands' (which must fit, termsFit): each Gaussian's
 * sums from the band it begins in, continued by the terms of the bands below in order, so every
 * sum adds the same floats in the same order as the one-pass backward.
 */
export function foldBands(frame: BandFrame, n: number): ProjectionGrads {
  const out: ProjectionGrads = { v_means2d: new Float64Array(n * 2), v_conics: new Float64Array(n * 3), v_colors: new Float64Array(n * 3), v_opacities: new Float64Array(n) };
  for (let b = 0; b < FIT_BANDS; b++) {
    const part = bandGrads(frame, n, b);
    for (const k of ['v_means2d', 'v_conics', 'v_colors', 'v_opacities'] as const) {
      const dst = out[k];
      const src = part[k];
      for (let i = 0; i < dst.length; i++) dst[i] += src[i];
    }
  }
  const { v_means2d, v_conics, v_colors, v_opacities } = out;
  for (let b = 1; b < FIT_BANDS; b++) {
    const terms = frame.terms[b];
    const runs = frame.runs[b];
    let k = 0;
    for (let r = 0; r < frame.ctrl[CTRL.runs + b]; r++) {
      const g = runs[r * 2];
      let vc0 = v_colors[g * 3];
      let vc1 = v_colors[g * 3 + 1];
      let vc2 = v_colors[g * 3 + 2];
      let vo = v_opacities[g];
      let va = v_conics[g * 3];
      let vb = v_conics[g * 3 + 1];
      let vc = v_conics[g * 3 + 2];
      let vmx = v_means2d[g * 2];
      let vmy = v_means2d[g * 2 + 1];
      for (let j = 0; j < runs[r * 2 + 1]; j++, k += TERMS) {
        vc0 += terms[k];
        vc1 += terms[k + 1];
        vc2 += terms[k + 2];
        vo += terms[k + 3];
        va += terms[k + 4];
        vb += terms[k + 5];
        vc += terms[k + 6];
        vmx -= terms[k + 7];
        vmy -= terms[k + 8];
      }
      v_colors[g * 3] = vc0;
      v_colors[g * 3 + 1] = vc1;
      v_colors[g * 3 + 2] = vc2;
      v_opacities[g] = vo;
      v_conics[g * 3] = va;
      v_conics[g * 3 + 1] = vb;
      v_conics[g * 3 + 2] = vc;
      v_means2d[g * 2] = vmx;
      v_means2d[g * 2 + 1] = vmy;
    }
  }
  return out;
}

export interface BandView {
  photo: RgbImage;
  mask: ArrayLike<number>;
}

/** One thread's band worker: its own loss targets and planes, the frame shared. */
export class BandKernel {
  private readonly targets: LossTarget[];
  private readonly planes = new Map<string, { walk: CompositePlanes; rgb: Float64Array; alpha: Float64Array; back: BackwardScratch }>();

  constructor(
    views: readonly BandView[],
    private frame: BandFrame,
  ) {
    this.targets = views.map((v) => new LossTarget(v.photo, v.mask));
  }

  /** Runs band b of the step the frame holds (forward, loss, backward) and writes its sums. */
  run(b: number): void {
    const f = this.frame;
    const target = this.targets[f.ctrl[CTRL.view]];
    const { width: w, height: h } = target;
    const n = f.ctrl[CTRL.count];
    const withGrad = f.ctrl[CTRL.withGrad] === 1;
    const key = `${w}x${h}`;
    let pl = this.planes.get(key);
    if (!pl) {
      pl = { walk: compositePlanes(w, h), rgb: new Float64Array(w * h * 3), alpha: new Float64Array(w * h), back: backwardScratch(w, h) };
      this.planes.set(key, pl);
    }
    const [y0, y1] = bandRows(f, b);
    const fy0 = Math.max(0, y0 - HALO);
    const fy1 = Math.min(h, y1 + HALO);
    const order = f.order.subarray(0, f.ctrl[CTRL.ordered]);
    const walkInput = { width: w, height: h, order, means2d: f.means2d, conics: f.conics, radii: f.radii, opacities: f.opacities, colors: f.colors };
    const { T, lastRank, acc } = compositeFrontToBack({ ...walkInput, window: { x0: 0, x1: w - 1, y0: fy0, y1: fy1 - 1 } }, {}, undefined, pl.walk);
    // As finish() in rasterize-forward.ts, over the rows rendered.
    const { rgb, alpha } = pl;
    for (let p = fy0 * w; p < fy1 * w; p++) {
      for (let k = 0; k < 3; k++) rgb[p * 3 + k] = (acc as Float64Array)[p * 3 + k] + T[p] * BACKGROUND;
      alpha[p] = 1 - T[p];
    }
    target.evaluateRows(rgb, alpha, withGrad, y0, y1, f.sums.subarray(b * LOSS_SUMS, (b + 1) * LOSS_SUMS));
    if (withGrad && n > 0) {
      const state = { width: w, height: h, order, lastRank, transmittance: T, colors: f.colors, opacities: f.opacities, projection: { means2d: f.means2d, conics: f.conics, radii: f.radii } };
      const record: TermRecord | undefined = b === 0 ? undefined : { fromRow: y0, terms: f.terms[b], runs: f.runs[b], used: 0, runCount: 0 };
      rasterizeBackwardPixels({ count: n }, state, target.grads, pl.back, { y0, y1: y1 - 1 }, bandGrads(f, n, b), record);
      f.ctrl[CTRL.used + b] = record ? record.used : 0;
      f.ctrl[CTRL.runs + b] = record ? record.runCount : 0;
    }
  }

  /** Works on another frame from now on (the leader's, grown). */
  useFrame(frame: BandFrame): void {
    this.frame = frame;
  }

  /** The loss of view `view` from its bands' sums (in band order). */
  parts(view: number, sums: readonly Float64Array[]): LossParts {
    return this.targets[view].parts(sums);
  }

  /** Claims and runs bands of the current step until none is left; returns how many it ran. */
  claimAll(): number {
    const ctrl = this.frame.ctrl;
    let ran = 0;
    for (let b = Atomics.add(ctrl, CTRL.claim, 1); b < FIT_BANDS; b = Atomics.add(ctrl, CTRL.claim, 1)) {
      this.run(b);
      Atomics.store(ctrl, CTRL.bandDone + b, 1);
      Atomics.add(ctrl, CTRL.done, 1);
      Atomics.notify(ctrl, CTRL.done);
      ran++;
    }
    return ran;
  }
}

/**
 * A helper thread's loop: waits for each step's generation, claims bands, until the frame's quit
 * flag is set. Blocks its thread (Atomics.wait), so it runs on a thread of its own.
 */
export function serveBands(views: readonly BandView[], frame: BandFrame): void {
  const kernel = new BandKernel(views, frame);
  const ctrl = frame.ctrl;
  let gen = Atomics.load(ctrl, CTRL.gen);
  for (;;) {
    if (Atomics.load(ctrl, CTRL.quit) === 1) return;
    kernel.claimAll();
    Atomics.wait(ctrl, CTRL.gen, gen);
    gen = Atomics.load(ctrl, CTRL.gen);
  }
}
