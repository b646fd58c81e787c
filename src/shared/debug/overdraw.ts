// Overdraw for the debugger: how many Gaussians the rasterizer evaluates at each pixel, i.e.
// every Gaussian (in depth order) whose pixel box holds the pixel, up to the one that would bring
// the transmittance to 1e-4 (included: it is evaluated, then compositing stops). Most are cheap
// misses (alpha < 1/255) or fully hidden; the map shows where a scene costs the most.
// Input: the ForwardState of one camera. Output: counts [H, W] and their summary.
// Invariant: overdraw >= the number of contributors at every pixel (the 'count' view).
import type { ForwardState } from '../raster/cpu/rasterize-forward';
import { ALPHA_MAX, ALPHA_THRESHOLD, T_STOP, pixelRange } from '../raster/cpu/camera-math';

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
  const T = new Float64Array(width * height).fill(1);
  const done = new Uint8Array(width * height);
  for (const g of order) {
    const mx = means2d[g * 2];
    const my = means2d[g * 2 + 1];
    const [a, b, c] = [conics[g * 3], conics[g * 3 + 1], conics[g * 3 + 2]];
    const box = pixelRange(mx, my, radii[g * 2], radii[g * 2 + 1], width, height);
    for (let py = box.y0; py <= box.y1; py++) {
      const dy = py + 0.5 - my;
      for (let px = box.x0; px <= box.x1; px++) {
        const p = py * width + px;
        if (done[p]) continue;
        counts[p]++;
        const dx = px + 0.5 - mx;
        const alpha = Math.min(ALPHA_MAX, opacities[g] * Math.exp(-0.5 * (a * dx * dx + 2 * b * dx * dy + c * dy * dy)));
        if (alpha < ALPHA_THRESHOLD) continue;
        const next = T[p] * (1 - alpha);
        if (next <= T_STOP) done[p] = 1;
        else T[p] = next;
      }
    }
  }
  let max = 0;
  let sum = 0;
  for (const v of counts) {
    if (v > max) max = v;
    sum += v;
  }
  return { width, height, counts, max, mean: counts.length ? sum / counts.length : 0 };
}
