// The one front-to-back compositing walk of the CPU rasterizer (docs/DESIGN.md section 3): every
// Gaussian in depth order over the pixels of its box, alpha = min(0.99, o exp(-q / 2)), skip
// alpha < 1/255, stop before a Gaussian that would bring T (1 - alpha) to 1e-4 or below.
// Callers: the reference forward pass (rasterizeForwardState), the pixel trace, the debugger's
// maps and overdraw, and the decidability replay (decidable.ts), each through hooks.
// Inputs: CompositeInput (a depth order and per-Gaussian 2D means, conics, box radii, opacities;
// colours optional), hooks. Output: the final transmittance, the stopped pixels, the rank of the
// last Gaussian composited per pixel, and the accumulated colour when colours are given.
// Invariant: without hooks that stop pixels, the walk makes exactly the reference's decisions with
// the same float operations, so every caller sees the image's own composite lists. The tile
// kernel (tiles.ts) keeps its own copy (it is shipped to threads as source text; parity-tested),
// rasterizeForwardDense stays the literal per-pixel definition, and the backward pass walks
// these lists back to front from lastRank.
import { ALPHA_MAX, ALPHA_THRESHOLD, T_STOP, pixelRange, rowSpan } from './camera-math';

export interface CompositeInput {
  width: number;
  height: number;
  order: ArrayLike<number>; // Gaussian indices front to back
  means2d: ArrayLike<number>; // [N, 2]
  conics: ArrayLike<number>; // [N, 3]
  radii: ArrayLike<number>; // [N, 2] box half-extents (pixelRange)
  opacities: ArrayLike<number>; // [N] composited opacity
  /** [N, 3]: when given, the walk accumulates colour * alpha * T per pixel (CompositeResult.acc). */
  colors?: ArrayLike<number>;
  /** Pixels walked (default the whole image); the pixel trace walks one. */
  window?: { x0: number; x1: number; y0: number; y1: number };
}

/** Per-pixel hooks; p is the pixel index y * width + x, rank the Gaussian's place in `order`. */
export interface CompositeHooks {
  /** Gaussian `rank` is evaluated at p (its box holds p, p has not stopped); raw = o G before the clamp. True stops p here. */
  evaluate?(p: number, rank: number, raw: number, dx: number, dy: number): boolean | void;
  /** Its alpha passed the 1/255 test and would take T from t to next. True stops p here (nothing composited). */
  admit?(p: number, rank: number, alpha: number, t: number, next: number): boolean | void;
  /** It is composited at p with weight alpha * t. */
  composite?(p: number, rank: number, alpha: number, t: number): void;
  /** It would bring T to 1e-4 or below at p: p stops there, it is not composited. */
  stop?(p: number, rank: number): void;
}

export interface CompositeResult {
  T: Float64Array; // [H, W] final transmittance
  done: Uint8Array; // [H, W] 1 where the pixel stopped (the 1e-4 stop or a hook)
  lastRank: Int32Array; // [H, W] rank of the last Gaussian composited, -1 if none
  acc: Float64Array | null; // [H, W, 3] accumulated colour (without the background), when colours are given
}

/** Planes a caller keeps between walks of one size (the fit's thousands of steps): reset, not reallocated. */
export interface CompositePlanes {
  T: Float64Array; // [H, W]
  done: Uint8Array; // [H, W]
  lastRank: Int32Array; // [H, W]
  acc: Float64Array; // [H, W, 3]
}

/** Planes for walks of a width x height image. */
export function compositePlanes(width: number, height: number): CompositePlanes {
  const npix = width * height;
  return { T: new Float64Array(npix), done: new Uint8Array(npix), lastRank: new Int32Array(npix), acc: new Float64Array(npix * 3) };
}

/**
 * Walks the composite; `done` may arrive with pixels already stopped (the decidability replay's
 * near-plane marks). With `planes` (of this size; not with `done`), the result's planes are those,
 * reset first, so a caller that reuses them must be done with the previous result.
 */
export function compositeFrontToBack(input: CompositeInput, hooks: CompositeHooks = {}, done?: Uint8Array, planes?: CompositePlanes): CompositeResult {
  const { width, height, order, means2d, conics, radii, opacities, colors } = input;
  const npix = width * height;
  if (planes && (done || planes.T.length !== npix)) throw new Error('compositeFrontToBack: planes of another size, or with a done mask');
  const T = planes ? planes.T.fill(1) : new Float64Array(npix).fill(1);
  const stopped = done ?? (planes ? planes.done.fill(0) : new Uint8Array(npix));
  const lastRank = (planes ? planes.lastRank : new Int32Array(npix)).fill(-1);
  const acc = colors ? (planes ? planes.acc.fill(0) : new Float64Array(npix * 3)) : null;
  const { evaluate, admit, composite, stop } = hooks;
  const win = input.window ?? { x0: 0, x1: width - 1, y0: 0, y1: height - 1 };
  // Without an evaluate hook (which sees every pixel of the box), each row walks only the span
  // where alpha can reach 1/255 (rowSpan): the same decisions, fewer exp calls.
  const span = new Int32Array(2);
  for (let rank = 0; rank < order.length; rank++) {
    const g = order[rank];
    const mx = means2d[g * 2];
    const my = means2d[g * 2 + 1];
    const a = conics[g * 3];
    const b = conics[g * 3 + 1];
    const c = conics[g * 3 + 2];
    const o = opacities[g];
    const box = pixelRange(mx, my, radii[g * 2], radii[g * 2 + 1], width, height);
    const x0 = Math.max(box.x0, win.x0);
    const x1 = Math.min(box.x1, win.x1);
    const y0 = Math.max(box.y0, win.y0);
    const y1 = Math.min(box.y1, win.y1);
    for (let py = y0; py <= y1; py++) {
      const dy = py + 0.5 - my;
      if (evaluate) {
        span[0] = x0;
        span[1] = x1;
      } else rowSpan(a, b, c, o, mx, dy, x0, x1, span);
      for (let px = span[0]; px <= span[1]; px++) {
        const p = py * width + px;
        if (stopped[p]) continue;
        const dx = px + 0.5 - mx;
        const raw = o * Math.exp(-0.5 * (a * dx * dx + 2 * b * dx * dy + c * dy * dy));
        if (evaluate && evaluate(p, rank, raw, dx, dy) === true) {
          stopped[p] = 1;
          continue;
        }
        const alpha = Math.min(ALPHA_MAX, raw);
        if (alpha < ALPHA_THRESHOLD) continue;
        const t = T[p];
        const next = t * (1 - alpha);
        if (admit && admit(p, rank, alpha, t, next) === true) {
          stopped[p] = 1;
          continue;
        }
        if (next <= T_STOP) {
          stopped[p] = 1;
          if (stop) stop(p, rank);
          continue;
        }
        if (acc && colors) {
          const wgt = alpha * t;
          acc[p * 3] += colors[g * 3] * wgt;
          acc[p * 3 + 1] += colors[g * 3 + 1] * wgt;
          acc[p * 3 + 2] += colors[g * 3 + 2] * wgt;
        }
        if (composite) composite(p, rank, alpha, t);
        T[p] = next;
        lastRank[p] = rank;
      }
    }
  }
  return { T, done: stopped, lastRank, acc };
}
