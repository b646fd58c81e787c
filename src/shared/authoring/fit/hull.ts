// Visual-hull initialisation of the reference fit: carve a voxel grid by the reference
// silhouettes, spread at most `maxGaussians` Gaussians through the surviving voxels (seeded
// farthest-point sampling), size them from the hull volume and colour them from the photos.
// Inputs: views (camera, photo [H, W, 3], mask [H, W] in [0, 1]), the cap, a seed.
// Output: GaussianRecord[] inside the scene limits. Invariant: deterministic for a seed; a
// voxel survives only if its centre projects inside every view's mask (> 0.5), and a point
// outside an image or behind a camera counts as outside.
import type { Camera } from '../../raster/types';
import type { RgbImage } from '../../image/image';
import type { GaussianRecord } from '../../scene/gaussian';
import { Random } from '../../math/random';
import { NEAR_PLANE } from '../../raster/cpu';
import { POS_LIMIT, SCALE_MAX, SCALE_MIN } from '../../scene/policy';
import { cameraCentre } from '../../camera/orbit';

export interface HullView {
  camera: Camera;
  mask: ArrayLike<number>; // [H, W]
  photo?: RgbImage; // [H, W, 3]; needed for colours only
}

export interface VoxelHull {
  resolution: number; // R voxels per axis
  bound: number; // the grid spans [-bound, bound]^3
  voxelSize: number; // world units
  occupied: Uint8Array; // [R, R, R] indexed (z * R + y) * R + x
  count: number; // surviving voxels
}

export interface HullInitOptions {
  maxGaussians: number;
  seed: number;
  resolution?: number; // default 56
  opacity?: number; // default 0.8
}

export const DEFAULT_HULL_RESOLUTION = 56;
export const DEFAULT_INIT_OPACITY = 0.8;

/** Pixel (x, y) of a world point in a camera, or null when behind the near plane or off-image. */
export function projectPoint(camera: Camera, p: readonly number[]): [number, number] | null {
  const m = camera.world_to_camera;
  const xc = m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3];
  const yc = m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7];
  const zc = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
  if (!(zc >= NEAR_PLANE)) return null;
  const u = Math.floor((camera.fx * xc) / zc + camera.cx);
  const v = Math.floor((camera.fy * yc) / zc + camera.cy);
  if (u < 0 || v < 0 || u >= camera.width || v >= camera.height) return null;
  return [u, v];
}

/** Voxel centre of flat index `i`. */
function voxelCentre(h: VoxelHull, i: number): [number, number, number] {
  const r = h.resolution;
  const x = i % r;
  const y = Math.floor(i / r) % r;
  const z = Math.floor(i / (r * r));
  const c = (k: number): number => -h.bound + (k + 0.5) * h.voxelSize;
  return [c(x), c(y), c(z)];
}

export function carveVisualHull(views: readonly HullView[], resolution = DEFAULT_HULL_RESOLUTION, bound = POS_LIMIT): VoxelHull {
  if (views.length === 0) throw new Error('visual hull: no views');
  const voxelSize = (2 * bound) / resolution;
  const hull: VoxelHull = { resolution, bound, voxelSize, occupied: new Uint8Array(resolution ** 3), count: 0 };
  for (let i = 0; i < hull.occupied.length; i++) {
    const p = voxelCentre(hull, i);
    let inside = true;
    for (const v of views) {
      const px = projectPoint(v.camera, p);
      if (!px || !(v.mask[px[1] * v.camera.width + px[0]] > 0.5)) {
        inside = false;
        break;
      }
    }
    if (inside) {
      hull.occupied[i] = 1;
      hull.count += 1;
    }
  }
  return hull;
}

/** Seeded farthest-point sampling of `k` points among `points` ([M, 3]); returns indices. */
export function farthestPoints(points: Float64Array, k: number, rng: Random): number[] {
  const m = points.length / 3;
  if (m <= k) return Array.from({ length: m }, (_, i) => i);
  const dist = new Float64Array(m).fill(Infinity);
  const chosen: number[] = [];
  let next = rng.int(m);
  for (let s = 0; s < k; s++) {
    chosen.push(next);
    const cx = points[next * 3];
    const cy = points[next * 3 + 1];
    const cz = points[next * 3 + 2];
    let best = -1;
    let bestD = -1;
    for (let i = 0; i < m; i++) {
      const dx = points[i * 3] - cx;
      const dy = points[i * 3 + 1] - cy;
      const dz = points[i * 3 + 2] - cz;
      const d = Math.min(dist[i], dx * dx + dy * dy + dz * dz);
      dist[i] = d;
      if (d > bestD) {
        bestD = d;
        best = i;
      }
    }
    next = best;
  }
  return chosen;
}

/** True when the segment from `p` towards the camera centre leaves the grid without entering another occupied voxel. */
function visibleFrom(h: VoxelHull, p: readonly number[], eye: readonly number[]): boolean {
  const d = [eye[0] - p[0], eye[1] - p[1], eye[2] - p[2]];
  const len = Math.hypot(d[0], d[1], d[2]);
  const stepLen = h.voxelSize * 0.5;
  const r = h.resolution;
  // Start two voxels out so the point's own voxel (and its immediate neighbours) do not occlude it.
  for (let t = 2 * h.voxelSize; t < len; t += stepLen) {
    const q = [p[0] + (d[0] * t) / len, p[1] + (d[1] * t) / len, p[2] + (d[2] * t) / len];
    const idx = q.map((v) => Math.floor((v + h.bound) / h.voxelSize));
    if (idx.some((k) => k < 0 || k >= r)) return true;
    if (h.occupied[(idx[2] * r + idx[1]) * r + idx[0]]) return false;
  }
  return true;
}

/** Mean photo colour at the projected point over the views that see it (front-most), else over all views whose mask covers it. */
function pointColor(h: VoxelHull, views: readonly HullView[], p: readonly number[]): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  const fallback = [0, 0, 0];
  let nf = 0;
  for (const v of views) {
    if (!v.photo) continue;
    const px = projectPoint(v.camera, p);
    if (!px) continue;
    const pi = px[1] * v.camera.width + px[0];
    if (!(v.mask[pi] > 0.5)) continue;
    const rgb = [v.photo.data[pi * 3], v.photo.data[pi * 3 + 1], v.photo.data[pi * 3 + 2]];
    for (let k = 0; k < 3; k++) fallback[k] += rgb[k];
    nf += 1;
    if (visibleFrom(h, p, cameraCentre(v.camera))) {
      for (let k = 0; k < 3; k++) sum[k] += rgb[k];
      n += 1;
    }
  }
  const src = n > 0 ? sum : fallback;
  const cnt = n > 0 ? n : nf;
  if (cnt === 0) return [0.5, 0.5, 0.5];
  return [src[0] / cnt, src[1] / cnt, src[2] / cnt];
}

/** Gaussians spread through the visual hull of the views; [] when the hull is empty. */
export function visualHullInit(views: readonly HullView[], options: HullInitOptions): GaussianRecord[] {
  const { maxGaussians, seed } = options;
  if (!Number.isInteger(maxGaussians) || maxGaussians < 1) throw new Error(`maxGaussians must be a positive integer (got ${maxGaussians})`);
  const hull = carveVisualHull(views, options.resolution ?? DEFAULT_HULL_RESOLUTION);
  if (hull.count === 0) return [];
  const rng = new Random(seed);
  // Voxel centres with a seeded jitter of up to half a voxel, so points do not sit on a lattice.
  const pts = new Float64Array(hull.count * 3);
  let j = 0;
  for (let i = 0; i < hull.occupied.length; i++) {
    if (!hull.occupied[i]) continue;
    const c = voxelCentre(hull, i);
    for (let k = 0; k < 3; k++) pts[j * 3 + k] = c[k] + (rng.next() - 0.5) * hull.voxelSize;
    j += 1;
  }
  const picks = farthestPoints(pts, maxGaussians, rng);
  const volume = hull.count * hull.voxelSize ** 3;
  // Half the mean spacing: neighbours overlap at about alpha 0.5 of each other's peak.
  const sigma = Math.min(SCALE_MAX, Math.max(SCALE_MIN, 0.5 * Math.cbrt(volume / picks.length)));
  const opacity = options.opacity ?? DEFAULT_INIT_OPACITY;
  return picks.map((pi, id) => {
    const pos: [number, number, number] = [0, 1, 2].map((k) => Math.min(POS_LIMIT, Math.max(-POS_LIMIT, pts[pi * 3 + k]))) as [number, number, number];
    return { id, pos, scale: [sigma, sigma, sigma], quat: [1, 0, 0, 0], color: pointColor(hull, views, pos), opacity };
  });
}
