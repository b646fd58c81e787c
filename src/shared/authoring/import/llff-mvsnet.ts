// LLFF poses_bounds.npy rows and MVSNet/BlendedMVS cams/*_cam.txt to CaptureCameras
// (docs/TASKS.md "Photographed objects").
// LLFF: one row of 17 numbers per photo, rows in the order of the photos sorted by name; the
// first 15 are a 3x5 matrix (row-major) whose columns are the camera's down, right and backwards
// axes in world coordinates, the camera centre, and (height, width, focal in pixels) of the
// full-size photo; the last two are depth bounds (unused). The principal point is the centre.
// MVSNet: "extrinsic" then a 4x4 world-to-camera matrix (OpenCV axes), "intrinsic" then a 3x3 K,
// then the depth range line (unused). Neither format has lens distortion.
// Invariant: a photo of another size than its row says scales the intrinsics with it.
import type { Mat3, Vec3 } from '../../math/vec3';
import { CaptureError, NO_DISTORTION, worldToCamera, type CaptureCamera } from './capture';

export const LLFF_ROW = 17;

/**
 * Cameras of poses_bounds rows; `photos` are the photos sorted by name with their real sizes
 * (a downscaled images_N folder is fine: intrinsics follow the photo's width).
 */
export function llffCameras(rows: ArrayLike<number>, photos: readonly { name: string; width: number; height: number }[], file = 'poses_bounds.npy'): CaptureCamera[] {
  if (rows.length % LLFF_ROW !== 0) throw new CaptureError(`${file}: ${rows.length} numbers is not a whole number of ${LLFF_ROW}-value rows`);
  const n = rows.length / LLFF_ROW;
  if (n !== photos.length) throw new CaptureError(`${file} has ${n} rows but the images folder holds ${photos.length} photos (a row per photo, in name order)`);
  return photos.map((p, i) => {
    const r = Array.from({ length: 15 }, (_, k) => rows[i * LLFF_ROW + k]);
    if (r.some((v) => !Number.isFinite(v))) throw new CaptureError(`${file}: row ${i} (${p.name}) holds a non-finite number`);
    const col = (c: number): Vec3 => [r[c], r[5 + c], r[10 + c]];
    const [down, right, back, centre, hwf] = [col(0), col(1), col(2), col(3), col(4)];
    const [h, w, f] = hwf;
    if (!(h > 0 && w > 0 && f > 0)) throw new CaptureError(`${file}: row ${i} (${p.name}) has height, width, focal ${h}, ${w}, ${f}`);
    const k = p.width / w;
    if (Math.abs(p.height / h - k) > 0.02 * k) throw new CaptureError(`${p.name} is ${p.width}x${p.height} but ${file} says ${w}x${h}: not the same aspect`);
    const rot: Mat3 = [...right, ...down, -back[0], -back[1], -back[2]] as Mat3;
    const t = [0, 1, 2].map((a) => -(rot[3 * a] * centre[0] + rot[3 * a + 1] * centre[1] + rot[3 * a + 2] * centre[2])) as Vec3;
    return { name: p.name, width: p.width, height: p.height, fx: f * k, fy: f * k, cx: p.width / 2, cy: p.height / 2, distortion: { ...NO_DISTORTION }, world_to_camera: worldToCamera(rot, t) };
  });
}

/** One MVSNet cam file; `size` is the photo's real size (the intrinsics are of that size). */
export function parseMvsnetCam(text: string, name: string, size: { width: number; height: number }, file: string): CaptureCamera {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const at = (label: string, count: number): number[] => {
    const i = words.findIndex((w) => w.toLowerCase() === label);
    if (i < 0) throw new CaptureError(`${file} has no '${label}' block`);
    const v = words.slice(i + 1, i + 1 + count).map(Number);
    if (v.length !== count || v.some((x) => !Number.isFinite(x))) throw new CaptureError(`${file}: '${label}' needs ${count} numbers`);
    return v;
  };
  const e = at('extrinsic', 16);
  const k = at('intrinsic', 9);
  if (!(k[0] > 0 && k[4] > 0)) throw new CaptureError(`${file}: the focal lengths ${k[0]}, ${k[4]} are not positive`);
  return { name, width: size.width, height: size.height, fx: k[0], fy: k[4], cx: k[2], cy: k[5], distortion: { ...NO_DISTORTION }, world_to_camera: [...e.slice(0, 12), 0, 0, 0, 1] };
}
