// NeRF-Synthetic (Blender) captures: transforms_*.json schema, camera conversion to the lab's
// OpenCV cameras, a coarse visual hull from the alpha masks to place the object in the bounds
// cube, and the choice of reference and held-out frames.
// Inputs: parsed JSON, camera-to-world matrices (OpenGL camera axes: +X right, +Y up, looks
// down -Z; world Z up), masks. Outputs: Cameras, bounds, frame indices.
// Invariant: cameraFromBlender maps the camera centre to s * (C - centre) and keeps the
// rotation, so a point p seen at pixel (u, v) in the capture is seen at the same pixel after
// normalisation as s * (p - centre).
import { z } from 'zod';
import type { Vec3 } from '../../math/vec3';
import type { Camera } from '../../raster/types';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const row4 = z.array(finite).length(4);

export const NerfFrameSchema = z.object({
  file_path: z.string().min(1),
  transform_matrix: z.array(row4).length(4),
});
export const NerfTransformsSchema = z.object({
  camera_angle_x: finite.refine((v) => v > 0 && v < Math.PI, 'camera_angle_x must be in (0, pi) radians'),
  frames: z.array(NerfFrameSchema).min(1, 'frames must not be empty'),
});
export type NerfTransforms = z.infer<typeof NerfTransformsSchema>;

/** World normalisation: p' = scale * (p - centre). */
export interface Normalisation {
  centre: Vec3;
  scale: number;
}

export const IDENTITY_NORMALISATION: Normalisation = { centre: [0, 0, 0], scale: 1 };
/** Half side of the cube the object is fitted into (inside the [-1, 1]^3 bounds). */
export const OBJECT_HALF_EXTENT = 0.9;

/** Focal length in pixels of an image `width` wide with horizontal field of view `angleX` (radians). */
export function focalFromAngle(width: number, angleX: number): number {
  return (0.5 * width) / Math.tan(0.5 * angleX);
}

/** Camera centre (world) of a camera-to-world matrix. */
export function blenderCentre(c2w: readonly (readonly number[])[]): Vec3 {
  return [c2w[0][3], c2w[1][3], c2w[2][3]];
}

/**
 * OpenCV camera of a Blender camera-to-world matrix at `size` x `size` pixels: the camera's Y
 * and Z axes are flipped (OpenGL looks down -Z with +Y up; OpenCV looks down +Z with +Y down).
 */
export function cameraFromBlender(c2w: readonly (readonly number[])[], angleX: number, size: number, norm: Normalisation = IDENTITY_NORMALISATION): Camera {
  const col = (k: number): Vec3 => [c2w[0][k], c2w[1][k], c2w[2][k]];
  const norm3 = (v: Vec3): Vec3 => {
    const n = Math.hypot(v[0], v[1], v[2]);
    return [v[0] / n, v[1] / n, v[2] / n];
  };
  // Rows of world_to_camera: camera axes in world coordinates (normalised against scaled c2w).
  const right = norm3(col(0));
  const up = norm3(col(1));
  const back = norm3(col(2));
  const rows: Vec3[] = [right, [-up[0], -up[1], -up[2]], [-back[0], -back[1], -back[2]]];
  const c = blenderCentre(c2w);
  const centre: Vec3 = [0, 1, 2].map((a) => norm.scale * (c[a] - norm.centre[a])) as Vec3;
  const m: number[] = [];
  for (const r of rows) m.push(r[0], r[1], r[2], -(r[0] * centre[0] + r[1] * centre[1] + r[2] * centre[2]));
  m.push(0, 0, 0, 1);
  const f = focalFromAngle(size, angleX);
  return { width: size, height: size, fx: f, fy: f, cx: size / 2, cy: size / 2, world_to_camera: m };
}

/** Least-squares point closest to every camera's optical axis (where the rig looks). */
export function lookAtPoint(cameras: readonly Camera[]): Vec3 {
  // Sum over cameras of (I - d d^T) p = (I - d d^T) c, solved as a 3x3 system.
  const A = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const b = [0, 0, 0];
  for (const cam of cameras) {
    const m = cam.world_to_camera;
    const d = [m[8], m[9], m[10]];
    const c = cameraCentreOf(m);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const p = (i === j ? 1 : 0) - d[i] * d[j];
        A[3 * i + j] += p;
        b[i] += p * c[j];
      }
    }
  }
  return solve3(A, b);
}

function cameraCentreOf(m: readonly number[]): Vec3 {
  const t = [m[3], m[7], m[11]];
  return [0, 1, 2].map((k) => -(m[k] * t[0] + m[4 + k] * t[1] + m[8 + k] * t[2])) as Vec3;
}

function solve3(A: number[], b: number[]): Vec3 {
  const det = (m: number[]): number =>
    m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  const D = det(A);
  if (!(Math.abs(D) > 1e-12)) throw new Error('the cameras do not look at a common point (all optical axes parallel)');
  return [0, 1, 2].map((k) => {
    const m = [...A];
    for (let i = 0; i < 3; i++) m[3 * i + k] = b[i];
    return det(m) / D;
  }) as Vec3;
}

export interface Box {
  min: Vec3;
  max: Vec3;
}

export interface HullOptions {
  resolution?: number; // voxels per side, default 48
  threshold?: number; // mask value that counts as object, default 0.5
}

/**
 * Bounding box of the visual hull inside `region`: a voxel survives unless some camera sees it
 * on a background pixel. A voxel outside a camera's image is carved only when that frame holds
 * the whole object (no object pixel on the image border); else that camera says nothing about
 * it. Returns null when nothing survives. `touches` says whether the hull reaches the region's
 * faces (the object may extend beyond it).
 */
export function visualHullBox(cameras: readonly Camera[], masks: readonly Float32Array[], region: Box, opts: HullOptions = {}): { box: Box; touches: boolean } | null {
  const n = opts.resolution ?? 48;
  const thr = opts.threshold ?? 0.5;
  const step = [0, 1, 2].map((a) => (region.max[a] - region.min[a]) / n);
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  const idxLo = [n, n, n];
  const idxHi = [-1, -1, -1];
  const whole = cameras.map((cam, c) => !touchesBorder(masks[c], cam.width, cam.height, thr));
  const p: Vec3 = [0, 0, 0];
  for (let k = 0; k < n; k++) {
    p[2] = region.min[2] + (k + 0.5) * step[2];
    for (let j = 0; j < n; j++) {
      p[1] = region.min[1] + (j + 0.5) * step[1];
      for (let i = 0; i < n; i++) {
        p[0] = region.min[0] + (i + 0.5) * step[0];
        if (!insideHull(p, cameras, masks, whole, thr)) continue;
        const ijk = [i, j, k];
        for (let a = 0; a < 3; a++) {
          lo[a] = Math.min(lo[a], p[a] - 0.5 * step[a]);
          hi[a] = Math.max(hi[a], p[a] + 0.5 * step[a]);
          idxLo[a] = Math.min(idxLo[a], ijk[a]);
          idxHi[a] = Math.max(idxHi[a], ijk[a]);
        }
      }
    }
  }
  if (idxHi[0] < 0) return null;
  const touches = idxLo.some((v) => v === 0) || idxHi.some((v) => v === n - 1);
  return { box: { min: lo, max: hi }, touches };
}

/** True when some pixel on the image border reaches the mask threshold (the object is cut off). */
function touchesBorder(mask: Float32Array, w: number, h: number, thr: number): boolean {
  for (let x = 0; x < w; x++) if (mask[x] >= thr || mask[(h - 1) * w + x] >= thr) return true;
  for (let y = 0; y < h; y++) if (mask[y * w] >= thr || mask[y * w + w - 1] >= thr) return true;
  return false;
}

function insideHull(p: Vec3, cameras: readonly Camera[], masks: readonly Float32Array[], whole: readonly boolean[], thr: number): boolean {
  for (let c = 0; c < cameras.length; c++) {
    const cam = cameras[c];
    const m = cam.world_to_camera;
    const z = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
    if (z <= 1e-6) continue;
    const u = Math.floor((cam.fx * (m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3])) / z + cam.cx);
    const v = Math.floor((cam.fy * (m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7])) / z + cam.cy);
    if (u < 0 || v < 0 || u >= cam.width || v >= cam.height) {
      if (whole[c]) return false;
      continue;
    }
    if (masks[c][v * cam.width + u] < thr) return false;
  }
  return true;
}

/** Normalisation that puts a box's centre at the origin and its longest half side at `half`. */
export function normalisationForBox(box: Box, half = OBJECT_HALF_EXTENT): Normalisation {
  const centre: Vec3 = [0, 1, 2].map((a) => 0.5 * (box.min[a] + box.max[a])) as Vec3;
  const ext = Math.max(...[0, 1, 2].map((a) => 0.5 * (box.max[a] - box.min[a])));
  if (!(ext > 0)) throw new Error('the object has no extent (empty visual hull)');
  return { centre, scale: half / ext };
}

/**
 * Farthest-point sampling on unit viewing directions: `nRef` reference frames starting from
 * frame 0, then `nHeld` held-out frames among the rest, each time the frame farthest (in angle)
 * from those already chosen; ties go to the lower index.
 */
export function selectFrames(directions: readonly Vec3[], nRef: number, nHeld: number): { reference: number[]; heldout: number[] } {
  const n = directions.length;
  if (n < nRef + 1) throw new Error(`need at least ${nRef + 1} frames (${nRef} reference + 1 held-out), found ${n}`);
  const angle = (a: Vec3, b: Vec3): number => Math.acos(Math.max(-1, Math.min(1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2])));
  const chosen: number[] = [];
  const farthest = (candidates: number[]): number => {
    let best = candidates[0];
    let bestD = -1;
    for (const i of candidates) {
      const d = chosen.reduce((m, j) => Math.min(m, angle(directions[i], directions[j])), Infinity);
      if (d > bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  };
  const all = Array.from({ length: n }, (_, i) => i);
  chosen.push(0);
  while (chosen.length < nRef) chosen.push(farthest(all.filter((i) => !chosen.includes(i))));
  const reference = [...chosen];
  const heldout: number[] = [];
  const held = Math.min(nHeld, n - nRef);
  while (heldout.length < held) {
    const pick = farthest(all.filter((i) => !chosen.includes(i)));
    chosen.push(pick);
    heldout.push(pick);
  }
  return { reference, heldout };
}

/** Orbit angles (degrees) of a camera centre seen from the origin: azimuth in [0, 360). */
export function orbitAngles(centre: Vec3): { azimuth: number; elevation: number } {
  const az = (Math.atan2(centre[1], centre[0]) * 180) / Math.PI;
  const el = (Math.atan2(centre[2], Math.hypot(centre[0], centre[1])) * 180) / Math.PI;
  return { azimuth: (az + 360) % 360, elevation: el };
}
