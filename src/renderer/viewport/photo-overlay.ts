// The scene's outlines drawn over a reference photo through that photo's own camera (matched
// play's "outline overlay" aid): each Gaussian's three half-alpha ellipses, projected with the
// public camera, as polylines on a 2D canvas. A geometric view of the player's own numbers, no
// render. Inputs: records, the view's camera, the canvas (any size: pixels scale from the photo).
// Invariant: uses the same contour size and contrast colour as the 3D viewport's outlines.
// See docs/DESIGN.md section 7.
import type { Camera } from '../../shared/raster/types';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import { quatToMat3 } from '../../shared/math/quaternion';
import { projectPoint } from '../../shared/camera/triangulate';
import type { Vec3 } from '../../shared/math/vec3';
import { rgbToCss } from '../../shared/math/color';
import { OUTLINE_SIGMAS, outlineColor } from './outlines';

const SEGMENTS = 40;

/** Projected polylines (photo pixel coordinates) of one Gaussian's three outline ellipses. */
export function outlinePolylines(r: GaussianRecord, cam: Camera): { u: number; v: number }[][] {
  const m = quatToMat3(r.quat);
  const lines: { u: number; v: number }[][] = [];
  for (const [a, b] of [[0, 1], [1, 2], [0, 2]] as const) {
    const line: { u: number; v: number }[] = [];
    for (let i = 0; i <= SEGMENTS; i++) {
      const t = (i / SEGMENTS) * Math.PI * 2;
      const local: Vec3 = [0, 0, 0];
      local[a] = Math.cos(t) * r.scale[a] * OUTLINE_SIGMAS;
      local[b] = Math.sin(t) * r.scale[b] * OUTLINE_SIGMAS;
      const p: Vec3 = [0, 1, 2].map((k) => r.pos[k] + m[k * 3] * local[0] + m[k * 3 + 1] * local[1] + m[k * 3 + 2] * local[2]) as Vec3;
      const px = projectPoint(cam, p);
      if (px) line.push(px);
    }
    lines.push(line);
  }
  return lines;
}

export function drawPhotoOverlay(canvas: HTMLCanvasElement, records: readonly GaussianRecord[], cam: Camera, selection: readonly number[]): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const sx = canvas.width / cam.width;
  const sy = canvas.height / cam.height;
  for (const r of records) {
    const c = selection.includes(r.id) ? [1, 0.62, 0.1] : outlineColor(r.color);
    for (const line of outlinePolylines(r, cam)) {
      // A dark halo under the coloured line keeps it readable on the photo's white and on dark parts.
      for (const [width, style] of [[3, 'rgba(0,0,0,0.55)'], [1.25, rgbToCss(c)]] as const) {
        ctx.lineWidth = width;
        ctx.strokeStyle = style;
        ctx.beginPath();
        line.forEach((p, i) => (i === 0 ? ctx.moveTo(p.u * sx, p.v * sy) : ctx.lineTo(p.u * sx, p.v * sy)));
        ctx.stroke();
      }
    }
  }
}
