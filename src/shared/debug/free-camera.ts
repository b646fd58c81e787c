// The debugger's free camera: look from any eye at any target (not only the origin), frame a
// scene's bounds, and fly (move eye and target together along the view, sideways or up).
// Inputs: points in world coordinates (Z up), a vertical field of view in degrees, image size.
// Output: explicit Cameras (OpenCV axes, as orbitCamera). Invariant: lookAtCamera(eye, 0) equals
// the orbit camera with the same eye, and the target always projects to the image centre.
import { orbitCamera } from '../camera/orbit';
import type { Camera } from '../raster/types';

export type Vec3 = [number, number, number];

export interface FreeView {
  eye: Vec3;
  target: Vec3;
  fov: number;
  width: number;
  height: number;
}

const DEG = 180 / Math.PI;

/** The camera at `eye` looking at `target` with world +Z up on the image. */
export function lookAtCamera(v: FreeView): Camera {
  const rel: Vec3 = [v.eye[0] - v.target[0], v.eye[1] - v.target[1], v.eye[2] - v.target[2]];
  const distance = Math.hypot(...rel);
  if (!(distance > 0)) throw new Error('free camera: the eye and the target are the same point');
  const cam = orbitCamera({
    azimuth: Math.atan2(rel[1], rel[0]) * DEG,
    elevation: Math.asin(Math.max(-1, Math.min(1, rel[2] / distance))) * DEG,
    distance,
    fov: v.fov,
    width: v.width,
    height: v.height,
  });
  // x_cam = R (x - target) + t  =>  translation t - R target.
  const m = [...cam.world_to_camera];
  for (let r = 0; r < 3; r++) m[r * 4 + 3] -= m[r * 4] * v.target[0] + m[r * 4 + 1] * v.target[1] + m[r * 4 + 2] * v.target[2];
  return { ...cam, world_to_camera: m };
}

/** A view of the box [min, max] from (azimuth, elevation) degrees, far enough that its bounding sphere fits the field of view. */
export function frameBounds(min: Vec3, max: Vec3, azimuth: number, elevation: number, fov: number, width: number, height: number): FreeView {
  const target: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const radius = Math.max(1e-3, 0.5 * Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]));
  const half = (0.5 * Math.min(fov, (2 * Math.atan((width / height) * Math.tan((0.5 * fov) / DEG))) * DEG)) / DEG;
  const d = (radius / Math.sin(half)) * 1.05;
  const az = azimuth / DEG;
  const el = elevation / DEG;
  const eye: Vec3 = [target[0] + d * Math.cos(el) * Math.cos(az), target[1] + d * Math.cos(el) * Math.sin(az), target[2] + d * Math.sin(el)];
  return { eye, target, fov, width, height };
}

/** Moves eye and target together: `forward` along the view, `right` sideways, `up` along world +Z. */
export function fly(v: FreeView, forward: number, right: number, up: number): FreeView {
  const f: Vec3 = [v.target[0] - v.eye[0], v.target[1] - v.eye[1], v.target[2] - v.eye[2]];
  const n = Math.hypot(...f) || 1;
  const fw: Vec3 = [f[0] / n, f[1] / n, f[2] / n];
  const side = Math.hypot(fw[0], fw[1]) > 1e-9 ? [fw[1] / Math.hypot(fw[0], fw[1]), -fw[0] / Math.hypot(fw[0], fw[1]), 0] : [1, 0, 0];
  const move = [0, 1, 2].map((k) => forward * fw[k] + right * side[k] + (k === 2 ? up : 0));
  const add = (p: Vec3): Vec3 => [p[0] + move[0], p[1] + move[1], p[2] + move[2]];
  return { ...v, eye: add(v.eye), target: add(v.target) };
}
