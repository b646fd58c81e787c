// Exact analytic ray caster for procedural objects: the CPU reference behind the task photos.
// Inputs: a validated ProceduralObject and an explicit OpenCV pinhole Camera. Outputs: RGB on
// white ([H, W, 3]) and the exact coverage fraction of the supersamples ([H, W]).
// Invariant: sample (i, j) of pixel (x, y) is the ray through (x + (i + 0.5) / s, y + (j + 0.5) / s);
// a pixel is the plain mean of its s*s samples; raycastObjectGpu computes the same thing in float32.
import type { Camera } from '../raster/types';
import type { RgbImage } from '../image/image';
import { cameraCentre } from '../camera/orbit';
import { hitNormal, intersectLocal, prepareParts, type PreparedPart } from './intersect';
import type { ProceduralObject, Vec3 } from './primitives';

/** Fixed studio light (world space, towards the light): upper front-right of the V0 camera. */
export const LIGHT_DIR: Readonly<Vec3> = normalize3([0.4, -0.3, 0.85]);
export const AMBIENT = 0.35;
export const DIFFUSE = 0.65;
export const DEFAULT_SAMPLES = 4;

export interface RaycastOptions {
  /** Supersamples per axis (s * s rays per pixel); default 4. */
  samples?: number;
}

export interface RaycastOutput {
  rgb: RgbImage;
  mask: Float32Array; // [H, W], fraction of the s*s samples that hit the object
}

/** Rows of the camera rotation and its centre: everything a ray needs from a Camera. */
export interface RayFrame {
  rows: [Vec3, Vec3, Vec3]; // world_to_camera rotation rows (camera x, y, z axes in world)
  centre: Vec3;
}

export function rayFrame(camera: Camera): RayFrame {
  const m = camera.world_to_camera;
  return {
    rows: [[m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]],
    centre: cameraCentre(camera),
  };
}

/** Validates the samples option: a positive integer, small enough to stay interactive. */
export function sampleCount(opts?: RaycastOptions): number {
  const s = opts?.samples ?? DEFAULT_SAMPLES;
  if (!Number.isInteger(s) || s < 1 || s > 16) throw new Error(`samples must be an integer in [1, 16] (got ${s})`);
  return s;
}

/** Shade of a unit world normal under the fixed light, before multiplying by the part colour. */
export function shade(nx: number, ny: number, nz: number): number {
  return AMBIENT + DIFFUSE * Math.max(0, nx * LIGHT_DIR[0] + ny * LIGHT_DIR[1] + nz * LIGHT_DIR[2]);
}

export function raycastObject(obj: ProceduralObject, camera: Camera, opts?: RaycastOptions): RaycastOutput {
  const s = sampleCount(opts);
  const { width: W, height: H } = camera;
  const parts = prepareParts(obj);
  const frame = rayFrame(camera);
  // Per part, the camera centre in the part's frame is the same for every ray.
  const origins = parts.map((p) => toLocal(p, sub3(frame.centre, p.pos)));
  const rgb = new Float32Array(W * H * 3);
  const mask = new Float32Array(W * H);
  const sample = new Float64Array(4); // r, g, b, hit
  const inv = 1 / (s * s);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let r = 0, g = 0, b = 0, hits = 0;
      for (let j = 0; j < s; j++) {
        for (let i = 0; i < s; i++) {
          traceSample(parts, origins, frame, camera, x + (i + 0.5) / s, y + (j + 0.5) / s, sample);
          r += sample[0];
          g += sample[1];
          b += sample[2];
          hits += sample[3];
        }
      }
      const p = y * W + x;
      rgb[3 * p] = r * inv;
      rgb[3 * p + 1] = g * inv;
      rgb[3 * p + 2] = b * inv;
      mask[p] = hits * inv;
    }
  }
  return { rgb: { width: W, height: H, data: rgb }, mask };
}

/** The same object from several cameras (e.g. the eight reference views). */
export function raycastViews(obj: ProceduralObject, cameras: readonly Camera[], opts?: RaycastOptions): RaycastOutput[] {
  return cameras.map((cam) => raycastObject(obj, cam, opts));
}

const dLocal: Vec3 = [0, 0, 0];
const oShift: Vec3 = [0, 0, 0];

/** Colour of the ray through pixel coordinates (u, v) into out = [r, g, b, hit]. */
function traceSample(
  parts: PreparedPart[], origins: Vec3[], frame: RayFrame, cam: Camera, u: number, v: number, out: Float64Array,
): void {
  const cx = (u - cam.cx) / cam.fx;
  const cy = (v - cam.cy) / cam.fy;
  const [r0, r1, r2] = frame.rows;
  let dx = cx * r0[0] + cy * r1[0] + r2[0];
  let dy = cx * r0[1] + cy * r1[1] + r2[1];
  let dz = cx * r0[2] + cy * r1[2] + r2[2];
  const dn = Math.sqrt(dx * dx + dy * dy + dz * dz);
  dx /= dn;
  dy /= dn;
  dz /= dn;
  let best = Infinity;
  let hit = -1;
  let nx = 0, ny = 0, nz = 0;
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    const m = p.toLocal;
    dLocal[0] = m[0] * dx + m[1] * dy + m[2] * dz;
    dLocal[1] = m[3] * dx + m[4] * dy + m[5] * dz;
    dLocal[2] = m[6] * dx + m[7] * dy + m[8] * dz;
    const o = origins[k];
    // Restart the ray at its closest approach to the part centre: keeps the quadratics small
    // (float32-friendly on the GPU) and lets the bounding sphere reject most parts.
    const t0 = -(o[0] * dLocal[0] + o[1] * dLocal[1] + o[2] * dLocal[2]);
    oShift[0] = o[0] + t0 * dLocal[0];
    oShift[1] = o[1] + t0 * dLocal[1];
    oShift[2] = o[2] + t0 * dLocal[2];
    if (oShift[0] * oShift[0] + oShift[1] * oShift[1] + oShift[2] * oShift[2] > p.bound2) continue;
    const ts = intersectLocal(p.kind, p.size, oShift, dLocal, -t0);
    if (ts + t0 < best) {
      best = ts + t0;
      hit = k;
      const w = p.toWorld;
      nx = w[0] * hitNormal[0] + w[1] * hitNormal[1] + w[2] * hitNormal[2];
      ny = w[3] * hitNormal[0] + w[4] * hitNormal[1] + w[5] * hitNormal[2];
      nz = w[6] * hitNormal[0] + w[7] * hitNormal[1] + w[8] * hitNormal[2];
    }
  }
  if (hit < 0) {
    out[0] = 1;
    out[1] = 1;
    out[2] = 1;
    out[3] = 0;
    return;
  }
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  // A hit exactly on a cone tip has no normal; shade it as if it faced world +Z.
  const f = nl > 0 ? shade(nx / nl, ny / nl, nz / nl) : shade(0, 0, 1);
  const c = parts[hit].color;
  out[0] = Math.min(1, Math.max(0, c[0] * f));
  out[1] = Math.min(1, Math.max(0, c[1] * f));
  out[2] = Math.min(1, Math.max(0, c[2] * f));
  out[3] = 1;
}

function toLocal(p: PreparedPart, v: Vec3): Vec3 {
  const m = p.toLocal;
  return [m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2], m[6] * v[0] + m[7] * v[1] + m[8] * v[2]];
}

function sub3(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function normalize3(v: Vec3): Vec3 {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}
