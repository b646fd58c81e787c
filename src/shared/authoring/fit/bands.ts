// The fit's step split in row bands (issue 40 item 1, docs/PERFORMANCE.md "Reference fit"): the
// image is cut into FIT_BANDS bands of rows (where the work splits evenly), and each band's forward composite, loss (L1, SSIM and
// silhouette with their gradients) and compositing backward run on whichever thread claims it,
// over shared memory (a BandFrame). A band renders the rows within 10 of itself too (SSIM's window
// and its adjoint's), so no band waits for another until the backward: there a Gaussian begun in
// the band above continues that band's sums (BandChain), waiting for it when it lags behind. The
// leader takes each Gaussian's sums from the band its box ends in.
// Inputs: the fit's views (each thread builds its own LossTargets) and, per step, the projected
// scene the leader writes into the frame. Outputs: per band, the loss sums and ProjectionGrads.
// Invariant: a band's results depend only on the frame's inputs, never on the thread that ran it
// or how many threads there are, and every float is the one-pass backend's (backend.ts): each
// pixel's image and loss gradient, and each Gaussian's sums, continued across bands in row order;
// only the loss value adds the bands' sums (test/shared/authoring/fit/bands.test.ts).
import type { RgbImage } from '../../image/image';
import { compositeFrontToBack, compositePlanes, type CompositePlanes } from '../../raster/cpu/composite';
import { BACKGROUND } from '../../raster/cpu/rasterize-forward';
import { pixelRange } from '../../raster/cpu/camera-math';
import { backwardScratch, rasterizeBackwardPixels, type BackwardScratch, type BandChain, type ProjectionGrads } from '../../raster/cpu/rasterize-backward';
import { LOSS_SUMS, LossTarget, type LossParts } from './loss';

/** Bands of a step: one per core of the machines the lab targets (two); fixed so results never depend on the thread count. */
export const FIT_BANDS = 2;
/** Rows a band renders beyond its own on each side: SSIM's radius (5) for the map, again for its adjoint. */
const HALO = 10;

/** ctrl slots: the step's generation, the next band to claim, bands done, quit, the view, Gaussians in the order, gradient wanted, Gaussians. */
export const CTRL = { gen: 0, claim: 1, done: 2, quit: 3, view: 4, ordered: 5, withGrad: 6, count: 7, bandDone: 8, progress: 8 + FIT_BANDS, want: 8 + 2 * FIT_BANDS, cuts: 8 + 3 * FIT_BANDS } as const;

/** A step's shared memory: the projected scene in, each band's sums out. Every array lies on a SharedArrayBuffer. */
export interface BandFrame {
  ctrl: Int32Array; // [CTRL.cuts + FIT_BANDS + 1]; per band: done flag, the last rank its backward finished, the rank the band below waits for (-1: none); the row cuts
  order: Int32Array; // [N] depth order (CTRL.ordered used)
  radii: Int32Array; // [N, 2]
  means2d: Float64Array; // [N, 2]
  conics: Float64Array; // [N, 3]
  colors: Float64Array; // [N, 3]
  opacities: Float64Array; // [N]
  grads: Float64Array; // [FIT_BANDS, 9 N]: v_means2d (2N), v_conics (3N), v_colors (3N), v_opacities (N)
  sums: Float64Array; // [FIT_BANDS, LOSS_SUMS]
}

export function allocBandFrame(n: number): BandFrame {
  const i32 = (len: number): Int32Array => new Int32Array(new SharedArrayBuffer(Math.max(1, len) * 4));
  const f64 = (len: number): Float64Array => new Float64Array(new SharedArrayBuffer(Math.max(1, len) * 8));
  const ctrl = i32(CTRL.cuts + FIT_BANDS + 1);
  for (let b = 0; b < FIT_BANDS; b++) ctrl[CTRL.want + b] = -1;
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

/**
 * The whole image's ProjectionGrads from the bands': each Gaussian's sums are those of the band
 * its box ends in (they carry the bands above it, BandChain); a culled Gaussian's are zero.
 */
export function combineBands(frame: BandFrame, n: number, width: number, height: number): ProjectionGrads {
  const out: ProjectionGrads = { v_means2d: new Float64Array(n * 2), v_conics: new Float64Array(n * 3), v_colors: new Float64Array(n * 3), v_opacities: new Float64Array(n) };
  const { ctrl, means2d, radii } = frame;
  const parts = Array.from({ length: FIT_BANDS }, (_, b) => bandGrads(frame, n, b));
  for (let g = 0; g < n; g++) {
    if (!(radii[g * 2] > 0)) continue;
    const y1 = pixelRange(means2d[g * 2], means2d[g * 2 + 1], radii[g * 2], radii[g * 2 + 1], width, height).y1;
    let b = FIT_BANDS - 1;
    while (b > 0 && y1 < ctrl[CTRL.cuts + b]) b--;
    const src = parts[b];
    for (const [k, m] of [['v_means2d', 2], ['v_conics', 3], ['v_colors', 3], ['v_opacities', 1]] as const) {
      for (let j = 0; j < m; j++) out[k][g * m + j] = src[k][g * m + j];
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
    private readonly frame: BandFrame,
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
      rasterizeBackwardPixels({ count: n }, state, target.grads, pl.back, { y0, y1: y1 - 1 }, bandGrads(f, n, b), this.chain(b, n, y0));
    }
  }

  /** Band b's link to the band above (none for band 0): its sums, once that band is done with a Gaussian. */
  private chain(b: number, n: number, fromRow: number): BandChain {
    const ctrl = this.frame.ctrl;
    const above = b === 0 ? null : bandGrads(this.frame, n, b - 1);
    const mine = CTRL.progress + b;
    return {
      fromRow: above ? fromRow : -1,
      carry: (g, rank, sums) => {
        if (!above) return;
        const slot = CTRL.progress + b - 1;
        // The band above walks the same ranks from the back; wait until it has passed this one
        // (it wakes this thread only once it has: `want`).
        if (Atomics.load(ctrl, slot) > rank) {
          Atomics.store(ctrl, CTRL.want + b - 1, rank);
          for (let p = Atomics.load(ctrl, slot); p > rank; p = Atomics.load(ctrl, slot)) Atomics.wait(ctrl, slot, p, 1000);
          Atomics.store(ctrl, CTRL.want + b - 1, -1);
        }
        sums[0] = above.v_colors[g * 3];
        sums[1] = above.v_colors[g * 3 + 1];
        sums[2] = above.v_colors[g * 3 + 2];
        sums[3] = above.v_opacities[g];
        sums[4] = above.v_conics[g * 3];
        sums[5] = above.v_conics[g * 3 + 1];
        sums[6] = above.v_conics[g * 3 + 2];
        sums[7] = above.v_means2d[g * 2];
        sums[8] = above.v_means2d[g * 2 + 1];
      },
      finished: (rank) => {
        Atomics.store(ctrl, mine, rank);
        if (rank <= Atomics.load(ctrl, CTRL.want + b)) Atomics.notify(ctrl, mine);
      },
    };
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
      this.runBand(b);
      ran++;
    }
    return ran;
  }

  /** Runs band b and marks it done. */
  runBand(b: number): void {
    const ctrl = this.frame.ctrl;
    this.run(b);
    Atomics.store(ctrl, CTRL.bandDone + b, 1);
    Atomics.add(ctrl, CTRL.done, 1);
    Atomics.notify(ctrl, CTRL.done);
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
