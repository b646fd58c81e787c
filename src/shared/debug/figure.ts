// Debugger figures: a view image enlarged by an integer factor (nearest neighbour, so every
// rendered pixel stays a sharp square a click can land on), and the exported figure: the image
// with a caption strip below holding the title and, for heat maps, a colour bar with its range.
// Inputs: RgbImage, caption texts, optional legend. Output: RgbImage.
// Invariant: pixel (x, y) of the source fills the block [x*k, (x+1)*k) x [y*k, (y+1)*k).
import type { RgbImage } from '../image/image';
import { blit, fillRect, type Rgb } from '../image/draw';
import { CELL_H, drawText, textWidth, wrapText } from '../image/font';
import { heat } from './colormap';
import type { ValueRange } from './heatmap';

/** Views are shown at least this many pixels across (small task images are enlarged). */
export const MIN_DISPLAY = 512;

/** Integer enlargement for an image of this size. */
export function displayScale(width: number, height: number): number {
  return Math.max(1, Math.floor(MIN_DISPLAY / Math.max(width, height)));
}

export function upscale(img: RgbImage, k: number): RgbImage {
  if (k === 1) return { width: img.width, height: img.height, data: new Float32Array(img.data) };
  const w = img.width * k;
  const h = img.height * k;
  const data = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const sy = Math.floor(y / k);
    for (let x = 0; x < w; x++) {
      const s = (sy * img.width + Math.floor(x / k)) * 3;
      const d = (y * w + x) * 3;
      data[d] = img.data[s];
      data[d + 1] = img.data[s + 1];
      data[d + 2] = img.data[s + 2];
    }
  }
  return { width: w, height: h, data };
}

export interface Legend extends ValueRange {
  label: string; // what the colours mean, with units
  /** Meaning of the `none` colour (pixels with no value), when the image has any. */
  none?: string;
}

/** Short, fixed-width text of a legend number (3 significant digits, integers as they are). */
export function formatValue(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e6) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a >= 1e-3 && a < 1e4 ? String(Number(v.toPrecision(3))) : v.toExponential(2);
}

const INK: Rgb = [0.1, 0.1, 0.12];
const PAD = 6;
const BAR_H = 10;

/** The image with a caption strip: title lines, then the legend bar with min and max. */
export function figure(img: RgbImage, title: string, legend?: Legend): RgbImage {
  const w = img.width;
  const titleText = wrapText(title, w - 2 * PAD);
  const titleLines = titleText.split('\n').length;
  const noneText = legend?.none ? wrapText(`grey = ${legend.none}`, w - 2 * PAD) : '';
  const noneLines = noneText ? noneText.split('\n').length : 0;
  const legendH = legend ? BAR_H + CELL_H * (2 + noneLines) + PAD : 0;
  const stripH = PAD + titleLines * CELL_H + legendH + PAD;
  const out: RgbImage = { width: w, height: img.height + stripH, data: new Float32Array(w * (img.height + stripH) * 3).fill(1) };
  blit(out, img, 0, 0);
  let y = img.height + PAD;
  drawText(out, PAD, y, titleText, INK);
  y += titleLines * CELL_H;
  if (!legend) return out;
  const barW = w - 2 * PAD;
  for (let x = 0; x < barW; x++) fillRect(out, PAD + x, y, 1, BAR_H, heat(barW > 1 ? x / (barW - 1) : 1));
  y += BAR_H + 3;
  const lo = legend.log ? `${formatValue(legend.min)} (log)` : formatValue(legend.min);
  const hi = `max ${formatValue(legend.max)}`;
  drawText(out, PAD, y, lo, INK);
  drawText(out, w - PAD - textWidth(hi), y, hi, INK);
  y += CELL_H;
  drawText(out, PAD, y, wrapText(legend.label, w - 2 * PAD).split('\n')[0], INK);
  if (noneText) {
    y += CELL_H;
    drawText(out, PAD, y, noneText, INK);
  }
  fillRect(out, 0, img.height, w, 1, [0.8, 0.8, 0.8]);
  return out;
}
