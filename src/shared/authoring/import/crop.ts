// The square crop of a photographed view (docs/TASKS.md "Photographed objects"): the object's
// box projected into the photo, a square around it with a margin, the pixels cut out (white and
// mask 0 where the square leaves the photo) and area-resized to the task size, and the camera
// that sees exactly the cropped pixels.
// Inputs: an undistorted pinhole Camera, the photo [h, w, 3] and mask [h, w], a world box.
// Output: {photo, mask, camera} at size x size, the photo composited on white through the mask.
// Invariant: a world point at pixel (u, v) of the photo lands at ((u - x0) k, (v - y0) k) of the
// crop, k = size / side, and the new camera projects it there.
import type { Vec3 } from '../../math/vec3';
import type { Camera } from '../../raster/types';
import type { RgbImage } from '../../image/image';
import type { Box } from './nerf';
import { resizeArea } from './resize';

/** The object fills 1 / CROP_MARGIN of the square's side along its longer projected axis. */
export const CROP_MARGIN = 1.15;

export interface Square {
  x0: number;
  y0: number;
  side: number;
}

/** Pixel box of the 8 corners of `box` seen by `cam` (corners behind the camera are skipped). */
export function projectedBox(cam: Camera, box: Box): { u0: number; v0: number; u1: number; v1: number } | null {
  const m = cam.world_to_camera;
  let u0 = Infinity; let v0 = Infinity; let u1 = -Infinity; let v1 = -Infinity;
  for (let c = 0; c < 8; c++) {
    const p: Vec3 = [c & 1 ? box.max[0] : box.min[0], c & 2 ? box.max[1] : box.min[1], c & 4 ? box.max[2] : box.min[2]];
    const z = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
    if (z <= 1e-6) continue;
    const u = (cam.fx * (m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3])) / z + cam.cx;
    const v = (cam.fy * (m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7])) / z + cam.cy;
    u0 = Math.min(u0, u); v0 = Math.min(v0, v); u1 = Math.max(u1, u); v1 = Math.max(v1, v);
  }
  return u0 <= u1 ? { u0, v0, u1, v1 } : null;
}

/** Square (whole pixels) around the projected box with CROP_MARGIN; null when the box is behind the camera. */
export function cropSquare(cam: Camera, box: Box): Square | null {
  const b = projectedBox(cam, box);
  if (!b) return null;
  const side = Math.max(8, Math.ceil(CROP_MARGIN * Math.max(b.u1 - b.u0, b.v1 - b.v0)));
  return { x0: Math.round(0.5 * (b.u0 + b.u1) - side / 2), y0: Math.round(0.5 * (b.v0 + b.v1) - side / 2), side };
}

/** The camera of the crop, resized to `size`. */
export function croppedCamera(cam: Camera, sq: Square, size: number): Camera {
  const k = size / sq.side;
  return { width: size, height: size, fx: cam.fx * k, fy: cam.fy * k, cx: (cam.cx - sq.x0) * k, cy: (cam.cy - sq.y0) * k, world_to_camera: [...cam.world_to_camera] };
}

/** Cuts the square out of a photo and its mask and resizes both to size x size, on white. */
export function cropView(photo: Float32Array, mask: Float32Array, w: number, h: number, sq: Square, size: number): { photo: RgbImage; mask: Float32Array } {
  const s = sq.side;
  // RGB premultiplied by the mask plus the mask: area resizing is linear, so compositing commutes with it.
  const buf = new Float32Array(s * s * 4);
  for (let y = 0; y < s; y++) {
    const sy = sq.y0 + y;
    for (let x = 0; x < s; x++) {
      const sx = sq.x0 + x;
      const o = (y * s + x) * 4;
      if (sx < 0 || sy < 0 || sx >= w || sy >= h) {
        buf[o] = buf[o + 1] = buf[o + 2] = 1;
        continue;
      }
      const i = sy * w + sx;
      const a = Math.min(1, Math.max(0, mask[i]));
      for (let c = 0; c < 3; c++) buf[o + c] = photo[i * 3 + c] * a + (1 - a);
      buf[o + 3] = a;
    }
  }
  const small = resizeArea(buf, s, s, 4, size, size);
  const rgb = new Float32Array(size * size * 3);
  const m = new Float32Array(size * size);
  for (let i = 0; i < size * size; i++) {
    for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.min(1, Math.max(0, small[i * 4 + c]));
    m[i] = Math.min(1, Math.max(0, small[i * 4 + 3]));
  }
  return { photo: { width: size, height: size, data: rgb }, mask: m };
}
