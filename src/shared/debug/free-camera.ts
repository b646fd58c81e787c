// The debugger's free camera: look from any eye at any target (not only the origin), frame a
// scene's bounds, fly (move eye and target together along the view, sideways or up) at a speed
// scaled to the scene, look around from the eye (mouse drag), and pick up from any explicit
// camera. Inputs: points in world coordinates (Z up), a vertical field of view in degrees, image
// size, key codes. Output: explicit Cameras (OpenCV axes, as orbitCamera) and FreeViews.
// Invariant: lookAtCamera(eye, 0) equals the orbit camera with the same eye, and the target
// always projects to the image centre; looking never passes the poles (no roll flip).
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

/** Fly step per key press: a twentieth of the scene's bounding-box diagonal (never zero). */
export function flySpeed(min: Vec3, max: Vec3): number {
  const d = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return Number.isFinite(d) && d > 0 ? d / 20 : 0.05;
}

/** Keys that fly (KeyboardEvent.code) and their [forward, right, up] direction. */
export const FLY_KEYS: Readonly<Record<string, readonly [number, number, number]>> = {
  KeyW: [1, 0, 0],
  ArrowUp: [1, 0, 0],
  KeyS: [-1, 0, 0],
  ArrowDown: [-1, 0, 0],
  KeyA: [0, -1, 0],
  ArrowLeft: [0, -1, 0],
  KeyD: [0, 1, 0],
  ArrowRight: [0, 1, 0],
  KeyE: [0, 0, 1],
  KeyQ: [0, 0, -1],
};

/** Highest elevation the view direction may reach, degrees (lookAtCamera needs a horizon). */
export const MAX_PITCH = 85;

/** Turns the view about the eye: `yawDeg` about world +Z (positive = to the left), `pitchDeg` up; the eye stays, the target keeps its distance. */
export function look(v: FreeView, yawDeg: number, pitchDeg: number): FreeView {
  const f: Vec3 = [v.target[0] - v.eye[0], v.target[1] - v.eye[1], v.target[2] - v.eye[2]];
  const d = Math.hypot(...f);
  if (!(d > 0)) return v;
  const az = Math.atan2(f[1], f[0]) + yawDeg / DEG;
  const el = Math.max(-MAX_PITCH, Math.min(MAX_PITCH, Math.asin(Math.max(-1, Math.min(1, f[2] / d))) * DEG + pitchDeg)) / DEG;
  const target: Vec3 = [v.eye[0] + d * Math.cos(el) * Math.cos(az), v.eye[1] + d * Math.cos(el) * Math.sin(az), v.eye[2] + d * Math.sin(el)];
  return { ...v, target };
}

/** The free view of an explicit camera: its eye, its optical axis to a target `focus` away, its field of view and size (any roll is dropped). */
export function freeFromCamera(c: Camera, focus: number): FreeView {
  const m = c.world_to_camera;
  // x_cam = R x + t: the eye is -R^T t, the optical axis is R's third row.
  const eye: Vec3 = [0, 1, 2].map((k) => -(m[k] * m[3] + m[4 + k] * m[7] + m[8 + k] * m[11])) as Vec3;
  const axis: Vec3 = [m[8], m[9], m[10]];
  const n = Math.hypot(...axis) || 1;
  const d = focus > 0 ? focus : 1;
  const target: Vec3 = [eye[0] + (axis[0] / n) * d, eye[1] + (axis[1] / n) * d, eye[2] + (axis[2] / n) * d];
  const fov = 2 * Math.atan(c.height / (2 * c.fy)) * DEG;
  return { eye, target, fov, width: c.width, height: c.height };
}
