// Triangulation from two explicit cameras: the point a person clicked in two reference photos.
// Inputs: OpenCV pinhole cameras (row-major world_to_camera, fx, fy, cx, cy) and continuous pixel
// coordinates (pixel i spans [i, i + 1], its centre at i + 0.5, as the rasterizer samples).
// Outputs: the midpoint of the two viewing rays' closest approach and their gap (how far the
// rays miss each other: a large gap means the two clicks were not the same feature).
// Invariant: pure math on public data (the cameras are in the task's reference views).
// See docs/DESIGN.md section 2.
import type { Camera } from '../raster/types';
import type { Vec3 } from '../math/vec3';

export interface Ray {
  origin: Vec3;
  /** Unit direction in world coordinates. */
  dir: Vec3;
}

export type Triangulated = { ok: true; point: Vec3; gap: number; depths: [number, number] } | { ok: false; error: string };

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** Camera centre and world-space direction through pixel (u, v). */
export function pixelRay(cam: Camera, u: number, v: number): Ray {
  const m = cam.world_to_camera;
  const r = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]];
  const t = [m[3], m[7], m[11]];
  // Centre: -R^T t. Direction: R^T [x, y, 1] with x, y on the normalised image plane.
  const origin: Vec3 = [-(r[0] * t[0] + r[3] * t[1] + r[6] * t[2]), -(r[1] * t[0] + r[4] * t[1] + r[7] * t[2]), -(r[2] * t[0] + r[5] * t[1] + r[8] * t[2])];
  const x = (u - cam.cx) / cam.fx;
  const y = (v - cam.cy) / cam.fy;
  const d: Vec3 = [r[0] * x + r[3] * y + r[6], r[1] * x + r[4] * y + r[7], r[2] * x + r[5] * y + r[8]];
  const n = Math.hypot(...d);
  return { origin, dir: [d[0] / n, d[1] / n, d[2] / n] };
}

/** Continuous pixel position of a world point (null when it lies behind the camera). */
export function projectPoint(cam: Camera, p: Vec3): { u: number; v: number } | null {
  const m = cam.world_to_camera;
  const xc = m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3];
  const yc = m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7];
  const zc = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
  if (zc <= 1e-9) return null;
  return { u: cam.fx * (xc / zc) + cam.cx, v: cam.fy * (yc / zc) + cam.cy };
}

/** Rays closer to parallel than this (sine of the angle between them) cannot be triangulated. */
const MIN_SINE = 0.02;

/** The point seen at pixel `a` in camera A and at pixel `b` in camera B. */
export function triangulate(camA: Camera, a: { u: number; v: number }, camB: Camera, b: { u: number; v: number }): Triangulated {
  const ra = pixelRay(camA, a.u, a.v);
  const rb = pixelRay(camB, b.u, b.v);
  const w: Vec3 = [ra.origin[0] - rb.origin[0], ra.origin[1] - rb.origin[1], ra.origin[2] - rb.origin[2]];
  const c = dot(ra.dir, rb.dir);
  const denom = 1 - c * c;
  if (denom < MIN_SINE * MIN_SINE) return { ok: false, error: 'the two views look along nearly the same line: pick two photos from more different angles' };
  const da = dot(ra.dir, w);
  const db = dot(rb.dir, w);
  // Closest points: ra.origin + s * ra.dir and rb.origin + t * rb.dir.
  const s = (c * db - da) / denom;
  const t = (db - c * da) / denom;
  if (s <= 0 || t <= 0) return { ok: false, error: 'the rays meet behind a camera: the two clicks are not the same feature' };
  const pa: Vec3 = [ra.origin[0] + s * ra.dir[0], ra.origin[1] + s * ra.dir[1], ra.origin[2] + s * ra.dir[2]];
  const pb: Vec3 = [rb.origin[0] + t * rb.dir[0], rb.origin[1] + t * rb.dir[1], rb.origin[2] + t * rb.dir[2]];
  return { ok: true, point: [(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2], gap: Math.hypot(pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]), depths: [s, t] };
}
