// Overdraw for the debugger: how many Gaussians the rasterizer evaluates at each pixel, i.e.
// every Gaussian (in depth order) whose pixel box holds the pixel, up to the one that would bring
// the transmittance to 1e-4 (included: it is evaluated, then compositing stops). Most are cheap
// misses (alpha < 1/255) or fully hidden; the map shows where a scene costs the most.
// Input: the ForwardState of one camera. Output: counts [H, W] and their summary.
// Invariant: overdraw >= the number of contributors at every pixel (the 'count' view); the
// evaluations are those of the forward pass's own compositing walk (composite.ts).
import type { ForwardState } from '../raster/cpu/rasterize-forward';
import { compositeFrontToBack } from '../raster/cpu/composite';

export interface OverdrawMap {
  width: number;
  height: number;
  counts: Int32Array; // [H, W]
  max: number;
  mean: number;
}

export function overdrawMap(state: ForwardState): OverdrawMap {
  const { width, height, order, opacities } = state;
  const { means2d, conics, radii } = state.projection;
  const counts = new Int32Array(width * height);
  compositeFrontToBack(
    { width, height, order, means2d, conics, radii, opacities },
    {
      evaluate: (p) => {
        counts[p]++;
      },
    },
  );
  return overdrawOf(width, height, counts);
}

/** An overdraw map of per-pixel counts (from this walk, or the tiled rasterizer's `evaluated`), with its max and mean. */
export function overdrawOf(width: number, height: number, counts: Int32Array): OverdrawMap {
  let max = 0;
  let sum = 0;
  for (const v of counts) {
    if (v > max) max = v;
    sum += v;
  }
  return { width, height, counts, max, mean: counts.length ? sum / counts.length : 0 };
}
