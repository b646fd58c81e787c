// Per-pixel maps of one forward pass for the debugger: how many Gaussians were composited at
// each pixel and which one was first (its index and camera depth).
// Input: the CPU reference's ForwardState of one scene and camera. Output: PixelMaps with count
// [H, W], firstIndex [H, W] (-1: none) and firstDepth [H, W] (NaN: none). Invariant: the forward
// pass's own compositing walk (composite.ts) with its composited opacities (after the
// antialiasing compensation when on), so count[p] equals traceContributors(...).length everywhere.
import { compositeFrontToBack } from '../raster/cpu/composite';
import type { ForwardState } from '../raster/cpu/rasterize-forward';

export interface PixelMaps {
  width: number;
  height: number;
  count: Int32Array; // [H, W] number of Gaussians composited
  firstIndex: Int32Array; // [H, W] Splats index of the front-most contributor, -1 if none
  firstDepth: Float64Array; // [H, W] camera-space z of that contributor, NaN if none
}

export function pixelMaps(state: ForwardState): PixelMaps {
  const { width, height, order, opacities } = state;
  const { means2d, conics, radii, depths } = state.projection;
  const npix = width * height;
  const count = new Int32Array(npix);
  const firstIndex = new Int32Array(npix).fill(-1);
  const firstDepth = new Float64Array(npix).fill(NaN);
  compositeFrontToBack(
    { width, height, order, means2d, conics, radii, opacities },
    {
      composite: (p, rank) => {
        if (count[p] === 0) {
          firstIndex[p] = order[rank];
          firstDepth[p] = depths[order[rank]];
        }
        count[p] += 1;
      },
    },
  );
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
