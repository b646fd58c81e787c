// Raster drawing primitives for overlays and sheets: copy, rectangles, blits and anti-aliased
// lines. Inputs: RgbImage buffers ([H, W, 3], values in [0, 1]) and pixel coordinates (pixel
// centres at x + 0.5, as in the rasterizer). Invariant: everything is clipped to the image, so
// any coordinates (even far off-screen) are safe, and drawing is deterministic.
import type { RgbImage } from './image';

export type Rgb = readonly [number, number, number];

export function cloneRgb(img: RgbImage): RgbImage {
  return { width: img.width, height: img.height, data: new Float32Array(img.data) };
}

/** Mixes `color` into pixel (x, y) with weight `a` in [0, 1]; off-image pixels are ignored. */
export function blendPixel(img: RgbImage, x: number, y: number, color: Rgb, a: number): void {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height || a <= 0) return;
  const w = Math.min(1, a);
  const o = (y * img.width + x) * 3;
  for (let k = 0; k < 3; k++) img.data[o + k] = img.data[o + k] * (1 - w) + color[k] * w;
}

export function fillRect(img: RgbImage, x0: number, y0: number, w: number, h: number, color: Rgb): void {
  for (let y = Math.max(0, y0); y < Math.min(img.height, y0 + h); y++) {
    for (let x = Math.max(0, x0); x < Math.min(img.width, x0 + w); x++) {
      const o = (y * img.width + x) * 3;
      img.data[o] = color[0];
      img.data[o + 1] = color[1];
      img.data[o + 2] = color[2];
    }
  }
}

/** Copies `src` into `dst` with its top-left corner at (x0, y0), clipped. */
export function blit(dst: RgbImage, src: RgbImage, x0: number, y0: number): void {
  for (let y = 0; y < src.height; y++) {
    const dy = y0 + y;
    if (dy < 0 || dy >= dst.height) continue;
    for (let x = 0; x < src.width; x++) {
      const dx = x0 + x;
      if (dx < 0 || dx >= dst.width) continue;
      const s = (y * src.width + x) * 3;
      const d = (dy * dst.width + dx) * 3;
      dst.data[d] = src.data[s];
      dst.data[d + 1] = src.data[s + 1];
      dst.data[d + 2] = src.data[s + 2];
    }
  }
}

/**
 * Liang-Barsky clip of segment (x0,y0)-(x1,y1) to [xmin,xmax] x [ymin,ymax]; null if outside.
 * Keeps line drawing bounded for segments whose projection runs far off the image.
 */
export function clipSegment(
  x0: number, y0: number, x1: number, y1: number,
  xmin: number, ymin: number, xmax: number, ymax: number,
): [number, number, number, number] | null {
  const dx = x1 - x0;
  const dy = y1 - y0;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [[-dx, x0 - xmin], [dx, xmax - x0], [-dy, y0 - ymin], [dy, ymax - y0]];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return null;
  }
  return [x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy];
}

/**
 * Anti-aliased line of `width` pixels between two points in continuous pixel coordinates
 * (the centre of pixel (i, j) is (i + 0.5, j + 0.5)). Coverage is the distance from each pixel
 * centre to the segment, smoothed over one pixel, times `alpha`; each pixel is blended once.
 */
export function drawLine(
  img: RgbImage, x0: number, y0: number, x1: number, y1: number, color: Rgb, width = 1, alpha = 1,
): void {
  const pad = width / 2 + 1;
  const clipped = clipSegment(x0, y0, x1, y1, -pad, -pad, img.width + pad, img.height + pad);
  if (!clipped) return;
  const [ax, ay, bx, by] = clipped;
  const minX = Math.max(0, Math.floor(Math.min(ax, bx) - pad));
  const maxX = Math.min(img.width - 1, Math.ceil(Math.max(ax, bx) + pad));
  const minY = Math.max(0, Math.floor(Math.min(ay, by) - pad));
  const maxY = Math.min(img.height - 1, Math.ceil(Math.max(ay, by) + pad));
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5 - ax;
      const py = y + 0.5 - ay;
      const t = len2 > 0 ? Math.min(1, Math.max(0, (px * dx + py * dy) / len2)) : 0;
      const dist = Math.hypot(px - t * dx, py - t * dy);
      const cover = Math.min(1, Math.max(0, width / 2 + 0.5 - dist));
      if (cover > 0) blendPixel(img, x, y, color, cover * alpha);
    }
  }
}
