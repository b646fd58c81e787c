// Per-pixel maps of one forward pass for the debugger: how many Gaussians were composited at
// each pixel and which one was first (its index and camera depth).
// Inputs: the Splats and the CPU reference's ForwardState of the same scene and camera.
// Output: PixelMaps with count [H, W], firstIndex [H, W] (-1: none) and firstDepth [H, W] (NaN:
// none). Invariant: replays exactly the forward pass, like the backward pass does: at pixel p a
// Gaussian of rank r was composited iff r <= lastRank[p] and its clamped alpha >= 1/255, so
// count[p] equals traceContributors(...).length at every pixel.
import type { Splats } from '../scene/splats';
import { ALPHA_MAX, ALPHA_THRESHOLD, pixelRange } from '../raster/cpu/camera-math';
import { rawAlpha, type ForwardState } from '../raster/cpu/rasterize-forward';

export interface PixelMaps {
  width: number;
  height: number;
  count: Int32Array; // [H, W] number of Gaussians composited
  firstIndex: Int32Array; // [H, W] Splats index of the front-most contributor, -1 if none
  firstDepth: Float64Array; // [H, W] camera-space z of that contributor, NaN if none
}

export function pixelMaps(splats: Splats, state: ForwardState): PixelMaps {
  const { width, height, order, lastRank } = state;
  const { means2d, conics, radii, depths } = state.projection;
  const npix = width * height;
  const count = new Int32Array(npix);
  const firstIndex = new Int32Array(npix).fill(-1);
  const firstDepth = new Float64Array(npix).fill(NaN);
  for (let rank = 0; rank < order.length; rank++) {
    const g = order[rank];
    const mx = means2d[g * 2];
    const my = means2d[g * 2 + 1];
    const a = conics[g * 3];
    const b = conics[g * 3 + 1];
    const c = conics[g * 3 + 2];
    const o = splats.opacities[g];
    const box = pixelRange(mx, my, radii[g * 2], radii[g * 2 + 1], width, height);
    for (let py = box.y0; py <= box.y1; py++) {
      const dy = py + 0.5 - my;
      for (let px = box.x0; px <= box.x1; px++) {
        const p = py * width + px;
        if (rank > lastRank[p]) continue;
        const alpha = Math.min(ALPHA_MAX, rawAlpha(o, a, b, c, px + 0.5 - mx, dy));
        if (alpha < ALPHA_THRESHOLD) continue;
        if (count[p] === 0) {
          firstIndex[p] = g;
          firstDepth[p] = depths[g];
        }
        count[p] += 1;
      }
    }
  }
  return { width, height, count, firstIndex, firstDepth };
}

/** Smallest and largest finite value of a map (NaN entries skipped); null when none is finite. */
export function finiteRange(values: ArrayLike<number>): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? { min, max } : null;
}
