// Heat-map images of per-pixel and per-tile values for the debugger.
// Inputs: values [H, W] (or tile counts [tilesY, tilesX]) and the value range of the legend.
// Output: RgbImage [H, W, 3]. Invariant: value v maps to heat((v - min) / (max - min)) (or the
// log10 of both sides when `log`), NaN to the `none` colour, so the legend's end colours are
// exactly the colours of min and max.
import type { RgbImage } from '../image/image';
import { drawLine, type Rgb } from '../image/draw';
import { drawText, textWidth, GLYPH_H } from '../image/font';
import { heat, luminance } from './colormap';
import type { TileOccupancy } from './tiles';

export interface ValueRange {
  min: number;
  max: number;
  log?: boolean; // colour by log10(v); min must then be > 0 (values below it take the min colour)
}

/** Position in [0, 1] of value v on the range's colour bar (NaN stays NaN). */
export function rangePosition(v: number, range: ValueRange): number {
  if (Number.isNaN(v)) return NaN;
  if (range.log) {
    const lo = Math.log10(range.min);
    const hi = Math.log10(range.max);
    return hi > lo ? (Math.log10(Math.max(v, range.min)) - lo) / (hi - lo) : 1;
  }
  return range.max > range.min ? (v - range.min) / (range.max - range.min) : v >= range.max ? 1 : 0;
}

export function heatImage(values: ArrayLike<number>, width: number, height: number, range: ValueRange, none: Rgb): RgbImage {
  const data = new Float32Array(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    const v = values[p];
    const c = Number.isNaN(v) ? none : heat(rangePosition(v, range));
    data[p * 3] = c[0];
    data[p * 3 + 1] = c[1];
    data[p * 3 + 2] = c[2];
  }
  return { width, height, data };
}

/**
 * Tile counts as a heat map at `scale` times the image size, with the tile grid drawn and each
 * tile's count written in it when the tile is large enough to hold the digits.
 */
export function tileImage(occ: TileOccupancy, width: number, height: number, max: number, scale: number): RgbImage {
  const w = width * scale;
  const h = height * scale;
  const data = new Float32Array(w * h * 3);
  const range: ValueRange = { min: 0, max: Math.max(1, max) };
  for (let y = 0; y < h; y++) {
    const ty = Math.floor(y / scale / occ.tile);
    for (let x = 0; x < w; x++) {
      const tx = Math.floor(x / scale / occ.tile);
      const c = heat(rangePosition(occ.counts[ty * occ.tilesX + tx], range));
      const o = (y * w + x) * 3;
      data[o] = c[0];
      data[o + 1] = c[1];
      data[o + 2] = c[2];
    }
  }
  const img: RgbImage = { width: w, height: h, data };
  const grid: Rgb = [0.5, 0.5, 0.5];
  const step = occ.tile * scale;
  for (let tx = 1; tx < occ.tilesX; tx++) drawLine(img, tx * step, 0, tx * step, h, grid, 1, 0.7);
  for (let ty = 1; ty < occ.tilesY; ty++) drawLine(img, 0, ty * step, w, ty * step, grid, 1, 0.7);
  for (let ty = 0; ty < occ.tilesY; ty++) {
    for (let tx = 0; tx < occ.tilesX; tx++) {
      const n = occ.counts[ty * occ.tilesX + tx];
      const label = String(n);
      // Digits about a fifth of the tile tall, never below the font's own size.
      const s = Math.max(1, Math.min(3, Math.floor(step / 32)));
      if (textWidth(label, s) + 2 > step || GLYPH_H * s + 2 > step) continue;
      const bg = heat(rangePosition(n, range));
      const ink: Rgb = luminance(bg) > 0.45 ? [0, 0, 0] : [1, 1, 1];
      drawText(img, tx * step + (step - textWidth(label, s)) / 2, ty * step + (step - GLYPH_H * s) / 2, label, ink, s);
    }
  }
  return img;
}
