// The relation camera: a pinhole at a given position looking at a point, square images with a
// horizontal and vertical field of view of about 53 degrees, no roll.
// Inputs: eye, target point, size, FOV. Output: the lab's explicit Camera plus yaw/pitch/roll.
// Invariant: world_to_camera uses OpenCV axes (+X right, +Y down, +Z forward), like every lab camera.
import type { Camera } from '../../raster/types';
import type { Vec3 } from '../../authoring/primitives';
import type { CameraParams } from './params';

export const IMAGE_SIZE = 224;
export const FOV_DEG = 53;

export function lookAtCamera(eye: Readonly<Vec3>, at: Readonly<Vec3>, size = IMAGE_SIZE, fovDeg = FOV_DEG): CameraParams {
  const f = norm([at[0] - eye[0], at[1] - eye[1], at[2] - eye[2]]);
  if (Math.abs(f[2]) > 0.999) throw new Error('lookAtCamera: the view direction must not be vertical');
  const right = norm([f[1], -f[0], 0]); // f x up with up = +Z
  const down: Vec3 = [f[1] * right[2] - f[2] * right[1], f[2] * right[0] - f[0] * right[2], f[0] * right[1] - f[1] * right[0]];
  const t = (row: Vec3) => -(row[0] * eye[0] + row[1] * eye[1] + row[2] * eye[2]);
  const focal = size / 2 / Math.tan((fovDeg * Math.PI) / 360);
  return {
    position: [eye[0], eye[1], eye[2]],
    rotation: {
      yaw: (Math.atan2(f[1], f[0]) * 180) / Math.PI,
      pitch: (Math.asin(f[2]) * 180) / Math.PI,
      roll: 0,
    },
    world_to_camera: [...right, t(right), ...down, t(down), ...f, t(f), 0, 0, 0, 1],
    intrinsics: { width: size, height: size, fx: focal, fy: focal, cx: size / 2, cy: size / 2, fov_deg: fovDeg },
  };
}

export function toCamera(p: CameraParams): Camera {
  const { width, height, fx, fy, cx, cy } = p.intrinsics;
  return { width, height, fx, fy, cx, cy, world_to_camera: [...p.world_to_camera] };
}

/** Pixel coordinates of a world point, or null behind the camera. */
export function project(p: CameraParams, x: Readonly<Vec3>): { u: number; v: number } | null {
  const m = p.world_to_camera;
  const cx = m[0] * x[0] + m[1] * x[1] + m[2] * x[2] + m[3];
  const cy = m[4] * x[0] + m[5] * x[1] + m[6] * x[2] + m[7];
  const cz = m[8] * x[0] + m[9] * x[1] + m[10] * x[2] + m[11];
  if (cz <= 1e-6) return null;
  return { u: p.intrinsics.fx * (cx / cz) + p.intrinsics.cx, v: p.intrinsics.fy * (cy / cz) + p.intrinsics.cy };
}

function norm(v: Vec3): Vec3 {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}
