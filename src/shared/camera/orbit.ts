// Orbit cameras: turn (azimuth, elevation, distance, fov) into an explicit OpenCV pinhole camera.
// Inputs: angles in degrees, world Z up (docs/DESIGN.md section 2). Output: Camera with a row-major
// world_to_camera matrix. Invariant: the camera looks at the origin; image +Y points down, so
// world +Z appears up in every orbit view with elevation below 90 degrees.
import type { Camera } from '../raster/types';

export interface OrbitSpec {
  azimuth: number; // degrees, in the XY plane from +X towards +Y
  elevation: number; // degrees, from the XY plane towards +Z
  distance?: number; // default 4.5
  fov?: number; // vertical field of view in degrees, default 50
  width?: number; // default 256
  height?: number; // default 256
}

export const ORBIT_DEFAULTS = { distance: 4.5, fov: 50, width: 256, height: 256 } as const;

const DEG = Math.PI / 180;

/** Camera centre in world coordinates for an orbit spec. */
export function orbitEye(spec: OrbitSpec): [number, number, number] {
  const d = spec.distance ?? ORBIT_DEFAULTS.distance;
  const az = spec.azimuth * DEG;
  const el = spec.elevation * DEG;
  return [d * Math.cos(el) * Math.cos(az), d * Math.cos(el) * Math.sin(az), d * Math.sin(el)];
}

/** Builds the explicit camera that looks from the orbit position at the origin. */
export function orbitCamera(spec: OrbitSpec): Camera {
  const width = spec.width ?? ORBIT_DEFAULTS.width;
  const height = spec.height ?? ORBIT_DEFAULTS.height;
  const fov = spec.fov ?? ORBIT_DEFAULTS.fov;
  const eye = orbitEye(spec);
  const forward = normalize([-eye[0], -eye[1], -eye[2]]);
  // Near the poles the world-up reference degenerates; fall back to +Y-of-azimuth so the
  // image keeps a stable orientation when looking straight down or up.
  const worldUp: [number, number, number] = Math.abs(forward[2]) > 0.999999
    ? [-Math.cos(spec.azimuth * DEG), -Math.sin(spec.azimuth * DEG), 0]
    : [0, 0, 1];
  const right = normalize(cross(forward, worldUp)); // camera +X
  const down = cross(forward, right); // camera +Y (image down)
  const rows = [right, down, forward];
  const m: number[] = [];
  for (const r of rows) m.push(r[0], r[1], r[2], -(r[0] * eye[0] + r[1] * eye[1] + r[2] * eye[2]));
  m.push(0, 0, 0, 1);
  const f = (0.5 * height) / Math.tan(0.5 * fov * DEG);
  return { width, height, fx: f, fy: f, cx: width / 2, cy: height / 2, world_to_camera: m };
}

/** Camera centre of an explicit camera (inverse of the rigid world_to_camera). */
export function cameraCentre(cam: Camera): [number, number, number] {
  const m = cam.world_to_camera;
  const t = [m[3], m[7], m[11]];
  // centre = -R^T t for a rigid transform.
  return [
    -(m[0] * t[0] + m[4] * t[1] + m[8] * t[2]),
    -(m[1] * t[0] + m[5] * t[1] + m[9] * t[2]),
    -(m[2] * t[0] + m[6] * t[1] + m[10] * t[2]),
  ];
}

function cross(a: number[], b: number[]): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function normalize(v: number[]): [number, number, number] {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}
