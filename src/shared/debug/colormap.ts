// Colour maps for the rasterizer debugger's heat maps: a perceptually ordered sequential map
// (dark purple -> orange -> pale yellow, close to matplotlib's "inferno") sampled piecewise
// linearly. Input: t in [0, 1] (clamped; NaN maps to the "no data" grey). Output: RGB in [0, 1].
// Invariant: heat(0) and heat(1) are the end stops; luminance rises monotonically with t, so a
// brighter pixel always means a larger value.
import type { Rgb } from '../image/draw';

/** Control points of the map, evenly spaced over [0, 1]. */
const STOPS: readonly Rgb[] = [
  [0.001, 0.000, 0.014],
  [0.088, 0.044, 0.224],
  [0.258, 0.039, 0.406],
  [0.416, 0.090, 0.433],
  [0.578, 0.148, 0.404],
  [0.735, 0.216, 0.330],
  [0.865, 0.317, 0.226],
  [0.955, 0.469, 0.099],
  [0.987, 0.645, 0.040],
  [0.964, 0.837, 0.226],
  [0.988, 0.998, 0.645],
];

/** Colour of pixels that hold no value (no contributor, outside the image's data). */
export const NO_DATA: Rgb = [0.55, 0.57, 0.6];

export function heat(t: number): Rgb {
  if (Number.isNaN(t)) return NO_DATA;
  const x = Math.min(1, Math.max(0, t)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  const a = STOPS[i];
  const b = STOPS[i + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/** Relative luminance (Rec. 709 weights on the plain values), for tests and text contrast. */
export function luminance(c: Rgb): number {
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/** CSS colour stops of the map, for legends drawn by the browser. */
export function heatCssStops(): string[] {
  return STOPS.map((c) => `rgb(${c.map((v) => Math.round(v * 255)).join(', ')})`);
}
