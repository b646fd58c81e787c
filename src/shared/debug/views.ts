// The debugger's image views, composed from the CPU reference's forward state (pure).
// Inputs: ForwardState / PixelMaps / TileOccupancy of one scene and camera, enlargement k.
// Output: DebugFigure (the enlarged image a click maps back from, its legend, a title and a few
// numbers). Invariant: every view keeps the camera's pixel grid: source pixel (x, y) is the
// k x k block at (x*k, y*k), so one click mapping serves all views.
import type { RgbImage } from '../image/image';
import type { Rgb } from '../image/draw';
import type { ForwardState } from '../raster/cpu/rasterize-forward';
import type { Projection } from '../raster/types';
import { NO_DATA } from './colormap';
import { upscale, type Legend } from './figure';
import { heatImage, tileImage } from './heatmap';
import { finiteRange, type PixelMaps } from './maps';
import { drawEllipse, drawPixelMarker } from './overlays';
import type { TileOccupancy } from './tiles';
import type { OverdrawMap } from './overdraw';

export interface DebugFigure {
  image: RgbImage; // enlarged by k
  title: string;
  legend: Legend | null;
  stats: Record<string, number>;
}

export function rgbFigure(state: ForwardState, k: number): DebugFigure {
  const image = upscale({ width: state.width, height: state.height, data: Float32Array.from(state.rgb) }, k);
  return { image, title: 'Rendered RGB (CPU reference, over white)', legend: null, stats: {} };
}

export function coverageFigure(state: ForwardState, k: number): DebugFigure {
  const { width, height } = state;
  let covered = 0;
  for (let p = 0; p < width * height; p++) if (state.alpha[p] > 0.5) covered += 1;
  const image = upscale(heatImage(state.alpha, width, height, { min: 0, max: 1 }, NO_DATA), k);
  return { image, title: 'Coverage', legend: { min: 0, max: 1, label: 'coverage = 1 - final transmittance' }, stats: { pixelsOverHalf: covered } };
}

export function depthFigure(maps: PixelMaps, k: number): DebugFigure {
  const range = finiteRange(maps.firstDepth) ?? { min: 0, max: 1 };
  const image = upscale(heatImage(maps.firstDepth, maps.width, maps.height, range, NO_DATA), k);
  return {
    image,
    title: 'Depth of the first contributor',
    legend: { ...range, label: 'camera-space z (world units), near = dark', none: 'no contributor' },
    stats: { minDepth: range.min, maxDepth: range.max },
  };
}

export function countFigure(maps: PixelMaps, k: number): DebugFigure {
  let max = 0;
  let sum = 0;
  for (const c of maps.count) {
    if (c > max) max = c;
    sum += c;
  }
  const image = upscale(heatImage(maps.count, maps.width, maps.height, { min: 0, max: Math.max(1, max) }, NO_DATA), k);
  return {
    image,
    title: 'Contributors per pixel',
    legend: { min: 0, max: Math.max(1, max), label: 'Gaussians composited at the pixel' },
    stats: { maxCount: max, meanCount: sum / maps.count.length },
  };
}

/** `source`: where the lists come from ('the GPU's own lists' or the CPU box estimate). */
export function tilesFigure(occ: TileOccupancy, width: number, height: number, k: number, source = 'box estimate'): DebugFigure {
  let max = 0;
  for (const c of occ.counts) max = Math.max(max, c);
  return {
    image: tileImage(occ, width, height, max, k),
    title: `Tile occupancy (${occ.tile}x${occ.tile} tiles, ${occ.tilesX}x${occ.tilesY}): ${source}`,
    legend: { min: 0, max: Math.max(1, max), label: 'Gaussians listed in the tile' },
    stats: { maxPerTile: max, intersections: occ.total },
  };
}

export function overdrawFigure(od: OverdrawMap, k: number): DebugFigure {
  const top = Math.max(1, od.max);
  const image = upscale(heatImage(od.counts, od.width, od.height, { min: 0, max: top }, NO_DATA), k);
  return {
    image,
    title: 'Overdraw: Gaussians evaluated per pixel',
    legend: { min: 0, max: top, label: 'Gaussians whose box holds the pixel, up to the 1e-4 stop' },
    stats: { maxOverdraw: od.max, meanOverdraw: od.mean },
  };
}

export interface ImageDifference {
  maxAbs: [number, number, number]; // per channel, over all pixels
  perPixel: Float64Array; // [H, W] max over channels of |a - b|
}

export function imageDifference(a: ArrayLike<number>, b: ArrayLike<number>, width: number, height: number): ImageDifference {
  const maxAbs: [number, number, number] = [0, 0, 0];
  const perPixel = new Float64Array(width * height);
  for (let p = 0; p < width * height; p++) {
    let m = 0;
    for (let c = 0; c < 3; c++) {
      const d = Math.abs(a[p * 3 + c] - b[p * 3 + c]);
      if (d > maxAbs[c]) maxAbs[c] = d;
      if (d > m) m = d;
    }
    perPixel[p] = m;
  }
  return { maxAbs, perPixel };
}

export function differenceFigure(diff: ImageDifference, width: number, height: number, k: number, title: string): DebugFigure {
  const max = Math.max(...diff.maxAbs);
  const top = max > 0 ? max : 1e-6;
  const image = upscale(heatImage(diff.perPixel, width, height, { min: 0, max: top }, NO_DATA), k);
  return {
    image,
    title,
    legend: { min: 0, max: top, label: 'max over channels of |GPU - CPU|' },
    stats: { maxAbsR: diff.maxAbs[0], maxAbsG: diff.maxAbs[1], maxAbsB: diff.maxAbs[2] },
  };
}

const HIGHLIGHT: Rgb = [0.1, 0.85, 1];
const MARKER: Rgb = [1, 0.15, 0.55];

/** Outlines (2-sigma ellipses) of the given Gaussians and the marker of the picked pixel. */
export function highlight(image: RgbImage, k: number, projection: Projection, indices: readonly number[], pixel: { x: number; y: number }): RgbImage {
  const out: RgbImage = { width: image.width, height: image.height, data: new Float32Array(image.data) };
  for (const g of indices) {
    const mean: [number, number] = [projection.means2d[g * 2], projection.means2d[g * 2 + 1]];
    const conic: [number, number, number] = [projection.conics[g * 3], projection.conics[g * 3 + 1], projection.conics[g * 3 + 2]];
    drawEllipse(out, k, mean, conic, HIGHLIGHT);
  }
  drawPixelMarker(out, k, pixel.x, pixel.y, MARKER);
  return out;
}
