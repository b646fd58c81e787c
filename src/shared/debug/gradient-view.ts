// The gradient view: one disc per visible Gaussian at its projected centre, coloured by the
// magnitude of the chosen parameter's gradient, over a faded render; optional arrows for the
// position gradient's descent direction (-v_means) projected to the image plane.
// Inputs: Splats, Camera, the ForwardState (render + projection) and SplatGrads of a loss.
// Output: DebugFigure. Invariants: discs are drawn back to front (the front-most Gaussian is on
// top, as in the render); the longest arrow is ARROW_FRACTION of the image width and the others
// are scaled by their projected length relative to it.
import type { Rgb } from '../image/draw';
import type { ForwardState } from '../raster/cpu/rasterize-forward';
import type { Camera, SplatGrads, Splats } from '../raster/types';
import { heat } from './colormap';
import { upscale } from './figure';
import { gradientMagnitudes, projectDirections, type GradientParam } from './gradients';
import { rangePosition, type ValueRange } from './heatmap';
import { drawArrow, drawDisc } from './overlays';
import type { DebugFigure } from './views';

export const ARROW_FRACTION = 0.12;
/** Decades shown by the log colour scale below the largest magnitude. */
export const LOG_DECADES = 4;
const ARROW: Rgb = [0.05, 0.75, 0.95];

export interface GradientViewOptions {
  param: GradientParam;
  arrows: boolean;
  log: boolean;
}

export function gradientFigure(splats: Splats, camera: Camera, state: ForwardState, grads: SplatGrads, k: number, opts: GradientViewOptions): DebugFigure & { magnitudes: Float64Array } {
  const { width, height, order } = state;
  const { means2d } = state.projection;
  const magnitudes = gradientMagnitudes(grads, opts.param);
  let max = 0;
  let argmax = -1;
  for (const g of order) {
    if (magnitudes[g] > max) {
      max = magnitudes[g];
      argmax = g;
    }
  }
  // An all-zero gradient has no log scale: it is shown on the linear one.
  const range: ValueRange = opts.log && max > 0 ? { min: max / 10 ** LOG_DECADES, max, log: true } : { min: 0, max: max > 0 ? max : 1 };

  // Faded grey render as the backdrop, so the discs' colours read against it.
  const faded = new Float32Array(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    const grey = 0.2126 * state.rgb[p * 3] + 0.7152 * state.rgb[p * 3 + 1] + 0.0722 * state.rgb[p * 3 + 2];
    faded.fill(0.55 + 0.45 * grey, p * 3, p * 3 + 3);
  }
  const image = upscale({ width, height, data: faded }, k);
  const r = Math.max(4, Math.min(width, height) * k * 0.014);
  for (let rank = order.length - 1; rank >= 0; rank--) {
    const g = order[rank];
    drawDisc(image, k, means2d[g * 2], means2d[g * 2 + 1], r, heat(rangePosition(magnitudes[g], range)));
  }

  let maxArrow = 0;
  if (opts.arrows) {
    const descent = grads.v_means.map((v) => -v);
    const dirs = projectDirections(splats, camera, descent);
    for (const g of order) maxArrow = Math.max(maxArrow, Math.hypot(dirs[g * 2], dirs[g * 2 + 1]));
    const scale = maxArrow > 0 ? (ARROW_FRACTION * width * k) / maxArrow : 0;
    for (let rank = order.length - 1; rank >= 0; rank--) {
      const g = order[rank];
      drawArrow(image, k, means2d[g * 2], means2d[g * 2 + 1], dirs[g * 2] * scale, dirs[g * 2 + 1] * scale, ARROW);
    }
  }
  const label = `|v_${opts.param}| per Gaussian${opts.arrows ? '; arrows: -v_means on screen' : ''}`;
  return {
    image,
    title: `Gradient magnitude |v_${opts.param}|`,
    legend: { ...range, label },
    stats: { maxMagnitude: max, argmax, maxArrowPxPerUnit: maxArrow },
    magnitudes,
  };
}
