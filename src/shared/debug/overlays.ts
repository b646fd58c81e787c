// Marks drawn on enlarged debugger images: the outline of a projected Gaussian, the picked
// pixel, filled discs and arrows. Inputs: an RgbImage already enlarged by `k` and positions in
// source pixel coordinates (pixel centres at x + 0.5). Output: the image, drawn on in place.
// Invariant: every mark is clipped to the image (drawLine/blendPixel clip), so Gaussians far
// off-screen are safe to pass.
import type { RgbImage } from '../image/image';
import { blendPixel, drawLine, type Rgb } from '../image/draw';

/** Mahalanobis radius of the drawn outline: the 2-sigma ellipse of the 2D covariance. */
export const OUTLINE_SIGMA = 2;

/**
 * Outline of the ellipse d^T conic d = OUTLINE_SIGMA^2 around `mean` (source pixels), where
 * conic (a, b, c) is the inverse 2D covariance [[a, b], [b, c]] (px^-2).
 */
export function drawEllipse(img: RgbImage, k: number, mean: readonly [number, number], conic: readonly [number, number, number], color: Rgb, width = 1.5): void {
  const [a, b, c] = conic;
  const det = a * c - b * b;
  if (!(det > 0)) return;
  // Covariance = conic^-1; its eigen-decomposition gives the ellipse axes.
  const sxx = c / det;
  const sxy = -b / det;
  const syy = a / det;
  const mid = (sxx + syy) / 2;
  const rad = Math.sqrt(Math.max(0, ((sxx - syy) / 2) ** 2 + sxy * sxy));
  const l1 = mid + rad;
  const l2 = Math.max(0, mid - rad);
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const r1 = OUTLINE_SIGMA * Math.sqrt(l1) * k;
  const r2 = OUTLINE_SIGMA * Math.sqrt(l2) * k;
  const cx = mean[0] * k;
  const cy = mean[1] * k;
  const ct = Math.cos(theta);
  const st = Math.sin(theta);
  const segments = 48;
  let px = cx + r1 * ct;
  let py = cy + r1 * st;
  for (let i = 1; i <= segments; i++) {
    const t = (i / segments) * 2 * Math.PI;
    const u = r1 * Math.cos(t);
    const v = r2 * Math.sin(t);
    const nx = cx + u * ct - v * st;
    const ny = cy + u * st + v * ct;
    drawLine(img, px, py, nx, ny, color, width);
    px = nx;
    py = ny;
  }
}

/** A square frame around source pixel (x, y) and short ticks pointing at it from outside. */
export function drawPixelMarker(img: RgbImage, k: number, x: number, y: number, color: Rgb): void {
  const x0 = x * k - 1;
  const y0 = y * k - 1;
  const x1 = (x + 1) * k + 1;
  const y1 = (y + 1) * k + 1;
  drawLine(img, x0, y0, x1, y0, color);
  drawLine(img, x1, y0, x1, y1, color);
  drawLine(img, x1, y1, x0, y1, color);
  drawLine(img, x0, y1, x0, y0, color);
  const cx = (x + 0.5) * k;
  const cy = (y + 0.5) * k;
  const gap = k / 2 + 4;
  const len = 8;
  drawLine(img, cx - gap - len, cy, cx - gap, cy, color, 2);
  drawLine(img, cx + gap, cy, cx + gap + len, cy, color, 2);
  drawLine(img, cx, cy - gap - len, cx, cy - gap, color, 2);
  drawLine(img, cx, cy + gap, cx, cy + gap + len, color, 2);
}

/** Filled disc of radius r (enlarged pixels) at source position (x, y) with a thin dark rim. */
export function drawDisc(img: RgbImage, k: number, x: number, y: number, r: number, color: Rgb): void {
  const cx = x * k;
  const cy = y * k;
  const rim: Rgb = [0.1, 0.1, 0.1];
  for (let py = Math.floor(cy - r - 1); py <= Math.ceil(cy + r + 1); py++) {
    for (let px = Math.floor(cx - r - 1); px <= Math.ceil(cx + r + 1); px++) {
      const d = Math.hypot(px + 0.5 - cx, py + 0.5 - cy);
      const cover = Math.min(1, Math.max(0, r + 0.5 - d));
      if (cover <= 0) continue;
      blendPixel(img, px, py, d > r - 1 ? rim : color, cover);
    }
  }
}

/** Arrow from source position (x, y) along (dx, dy) enlarged pixels, with a two-stroke head. */
export function drawArrow(img: RgbImage, k: number, x: number, y: number, dx: number, dy: number, color: Rgb, width = 1.5): void {
  const len = Math.hypot(dx, dy);
  if (!(len > 0.5)) return;
  const x0 = x * k;
  const y0 = y * k;
  const x1 = x0 + dx;
  const y1 = y0 + dy;
  drawLine(img, x0, y0, x1, y1, color, width);
  const head = Math.min(6, len * 0.4);
  const ux = dx / len;
  const uy = dy / len;
  for (const s of [1, -1]) {
    const c = Math.cos(0.45);
    const sn = Math.sin(0.45) * s;
    drawLine(img, x1, y1, x1 - head * (ux * c - uy * sn), y1 - head * (uy * c + ux * sn), color, width);
  }
}
