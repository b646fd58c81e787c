// Photographed captures (docs/TASKS.md "Photographed objects"): the one camera every capture
// reader returns (OpenCV axes, world-to-camera, pixel intrinsics, COLMAP's lens models), the lens
// distortion, undistorting a photo onto the pinhole camera with the same intrinsics, and the
// levelling of a capture world so the cameras' mean up becomes +Z.
// Inputs: parsed camera parameters, float images. Outputs: CaptureCamera, pinhole Camera, images.
// Invariant: pixel centres sit at (i + 0.5, j + 0.5) as in COLMAP and the lab's rasterizer, so a
// distortion of zero leaves an image unchanged by undistortImage.
import type { Mat3, Vec3 } from '../../math/vec3';
import type { Camera } from '../../raster/types';

/** The lens models the readers accept (COLMAP's names; LLFF and MVSNet are PINHOLE). */
export const CAPTURE_MODELS = ['SIMPLE_PINHOLE', 'PINHOLE', 'SIMPLE_RADIAL', 'RADIAL', 'OPENCV'] as const;
export type CaptureModel = (typeof CAPTURE_MODELS)[number];
/** Parameter count of each model, in COLMAP's order. */
export const MODEL_PARAMS: Record<CaptureModel, number> = { SIMPLE_PINHOLE: 3, PINHOLE: 4, SIMPLE_RADIAL: 4, RADIAL: 5, OPENCV: 8 };

export class CaptureError extends Error {
  override name = 'CaptureError';
}

/** Brown-Conrady coefficients on normalised coordinates (COLMAP's OPENCV model). */
export interface Distortion {
  k1: number;
  k2: number;
  p1: number;
  p2: number;
}
export const NO_DISTORTION: Readonly<Distortion> = { k1: 0, k2: 0, p1: 0, p2: 0 };

/** One photo's camera: full-size pixel intrinsics and OpenCV world-to-camera (as Camera), its name and lens distortion. */
export interface CaptureCamera extends Camera {
  name: string; // the photo's file name as the capture names it
  distortion: Distortion;
}

/** Intrinsics and distortion of a COLMAP model's parameter list; throws CaptureError on a bad count. */
export function modelIntrinsics(model: string, params: readonly number[], where: string): Pick<CaptureCamera, 'fx' | 'fy' | 'cx' | 'cy' | 'distortion'> {
  if (!(CAPTURE_MODELS as readonly string[]).includes(model)) {
    throw new CaptureError(`${where}: camera model ${model} is not supported (supported: ${CAPTURE_MODELS.join(', ')})`);
  }
  const m = model as CaptureModel;
  if (params.length !== MODEL_PARAMS[m] || params.some((v) => !Number.isFinite(v))) {
    throw new CaptureError(`${where}: ${m} takes ${MODEL_PARAMS[m]} finite parameters, got ${params.length}`);
  }
  const p = params;
  switch (m) {
    case 'SIMPLE_PINHOLE': return { fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: { ...NO_DISTORTION } };
    case 'PINHOLE': return { fx: p[0], fy: p[1], cx: p[2], cy: p[3], distortion: { ...NO_DISTORTION } };
    case 'SIMPLE_RADIAL': return { fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: { ...NO_DISTORTION, k1: p[3] } };
    case 'RADIAL': return { fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: { k1: p[3], k2: p[4], p1: 0, p2: 0 } };
    case 'OPENCV': return { fx: p[0], fy: p[1], cx: p[2], cy: p[3], distortion: { k1: p[4], k2: p[5], p1: p[6], p2: p[7] } };
  }
}

/** Distorts normalised coordinates (x, y) = (X/Z, Y/Z) as COLMAP's OPENCV model does. */
export function distort(d: Distortion, x: number, y: number): [number, number] {
  const r2 = x * x + y * y;
  const radial = d.k1 * r2 + d.k2 * r2 * r2;
  return [x + x * radial + 2 * d.p1 * x * y + d.p2 * (r2 + 2 * x * x), y + y * radial + 2 * d.p2 * x * y + d.p1 * (r2 + 2 * y * y)];
}

/** Inverse of `distort` by fixed-point iteration (COLMAP's lenses are mild; 20 rounds suffice). */
export function undistortPoint(d: Distortion, xd: number, yd: number): [number, number] {
  let x = xd;
  let y = yd;
  for (let i = 0; i < 20; i++) {
    const [dx, dy] = distort(d, x, y);
    x += xd - dx;
    y += yd - dy;
  }
  return [x, y];
}

export function hasDistortion(d: Distortion): boolean {
  return d.k1 !== 0 || d.k2 !== 0 || d.p1 !== 0 || d.p2 !== 0;
}

/** Bilinear sample of a [h, w, channels] image at pixel position (x, y) (centres at i + 0.5), clamped to its edge, into out[o..]. */
export function bilinear(src: ArrayLike<number>, w: number, h: number, channels: number, x: number, y: number, out: Float32Array, o: number): void {
  const sx = Math.min(w - 1, Math.max(0, x - 0.5));
  const sy = Math.min(h - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(sx);
  const y0 = Math.floor(sy);
  const x1 = Math.min(w - 1, x0 + 1);
  const y1 = Math.min(h - 1, y0 + 1);
  const fx = sx - x0;
  const fy = sy - y0;
  for (let c = 0; c < channels; c++) {
    const a = src[(y0 * w + x0) * channels + c] * (1 - fx) + src[(y0 * w + x1) * channels + c] * fx;
    const b = src[(y1 * w + x0) * channels + c] * (1 - fx) + src[(y1 * w + x1) * channels + c] * fx;
    out[o + c] = a * (1 - fy) + b * fy;
  }
}

/**
 * Resamples a [h, w, channels] image taken through `cam`'s lens onto the pinhole camera with the
 * same intrinsics: each output pixel reads the distorted position of its ray, bilinearly, clamped
 * to the image's edge. Done at full size, before any resizing.
 */
export function undistortImage(src: Float32Array, channels: number, cam: CaptureCamera): Float32Array {
  const { width: w, height: h } = cam;
  if (!hasDistortion(cam.distortion)) return src;
  const out = new Float32Array(w * h * channels);
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const [xd, yd] = distort(cam.distortion, (i + 0.5 - cam.cx) / cam.fx, (j + 0.5 - cam.cy) / cam.fy);
      bilinear(src, w, h, channels, cam.fx * xd + cam.cx, cam.fy * yd + cam.cy, out, (j * w + i) * channels);
    }
  }
  return out;
}

/** The pinhole Camera of a capture camera (its distortion removed by undistortImage). */
export function pinholeCamera(cam: CaptureCamera): Camera {
  return { width: cam.width, height: cam.height, fx: cam.fx, fy: cam.fy, cx: cam.cx, cy: cam.cy, world_to_camera: [...cam.world_to_camera] };
}

/** World-to-camera 4x4 (row-major) of a rotation's rows and a translation. */
export function worldToCamera(r: Readonly<Mat3>, t: Vec3): number[] {
  return [r[0], r[1], r[2], t[0], r[3], r[4], r[5], t[1], r[6], r[7], r[8], t[2], 0, 0, 0, 1];
}

/** Rotation matrix (row-major) of a unit quaternion (w, x, y, z), as COLMAP stores world-to-camera. */
export function quatToMat3(w: number, x: number, y: number, z: number): Mat3 {
  const n = Math.hypot(w, x, y, z);
  if (!(n > 0)) throw new CaptureError('a camera rotation quaternion is zero');
  [w, x, y, z] = [w / n, x / n, y / n, z / n];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** The capture's up: the mean of the cameras' up directions (minus each image's +Y), unit length. */
export function captureUp(cams: readonly Pick<CaptureCamera, 'world_to_camera'>[]): Vec3 {
  const s: Vec3 = [0, 0, 0];
  for (const c of cams) for (let a = 0; a < 3; a++) s[a] -= c.world_to_camera[4 + a];
  const n = Math.hypot(s[0], s[1], s[2]);
  if (!(n > 1e-9)) throw new CaptureError('the cameras agree on no up direction (their image axes cancel out)');
  return [s[0] / n, s[1] / n, s[2] / n];
}

/** The smallest rotation (row-major) taking unit `up` to +Z. */
export function levelling(up: Vec3): Mat3 {
  const [x, y, z] = up;
  if (z < -1 + 1e-12) return [1, 0, 0, 0, -1, 0, 0, 0, -1];
  // Rodrigues about axis up x Z with cos = z, sin = |up x Z|: R = I + K + K^2 / (1 + z).
  const k: Mat3 = [0, 0, -x, 0, 0, -y, x, y, 0];
  const kk = (i: number, j: number): number => k[3 * i] * k[j] + k[3 * i + 1] * k[3 + j] + k[3 * i + 2] * k[6 + j];
  const r = [0, 0, 0, 0, 0, 0, 0, 0, 0] as Mat3;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) r[3 * i + j] = (i === j ? 1 : 0) + k[3 * i + j] + kk(i, j) / (1 + z);
  return r;
}

/**
 * The same camera seen from world' = s * (L p - c): rotation R L^T and translation
 * s * (R L^T c + t) (the image of a point is unchanged).
 */
export function moveCamera(m: readonly number[], level: Readonly<Mat3>, centre: Vec3, scale: number): number[] {
  const r = [0, 0, 0, 0, 0, 0, 0, 0, 0] as Mat3;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) r[3 * i + j] = m[4 * i] * level[3 * j] + m[4 * i + 1] * level[3 * j + 1] + m[4 * i + 2] * level[3 * j + 2];
  const t = [0, 1, 2].map((i) => scale * (r[3 * i] * centre[0] + r[3 * i + 1] * centre[1] + r[3 * i + 2] * centre[2] + m[4 * i + 3])) as Vec3;
  return worldToCamera(r, t);
}
