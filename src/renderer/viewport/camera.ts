// Explicit OpenCV cameras (src/shared/raster/types.ts) <-> three.js perspective cameras.
// OpenCV camera axes: +X right, +Y down, +Z forward; three.js: +X right, +Y up, looking down -Z.
// So camera-to-world(three) = inverse(world_to_camera) * diag(1, -1, -1).
// Inputs: a Camera (row-major world_to_camera, pinhole intrinsics). Outputs: pose + vertical fov
// for three, or a Camera for a three camera (the live preview renders from it).
// Invariant: a world point projects to the same pixel through both (principal point centred).
import type { Camera } from '../../shared/raster/types';

export interface ThreePose {
  position: [number, number, number];
  /** Column-major 4x4 camera-to-world matrix (three's Matrix4.fromArray order). */
  matrixWorld: number[];
  fovDeg: number; // vertical
  /** A point in front of the camera to orbit about (the origin's depth along the view axis). */
  target: [number, number, number];
  up: [number, number, number];
}

/** Pose of a three.js camera that sees what the OpenCV camera sees. */
export function poseFromCamera(cam: Camera): ThreePose {
  const m = cam.world_to_camera;
  // Rows of R are the camera axes in world coordinates.
  const r = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]];
  const t = [m[3], m[7], m[11]];
  const c: [number, number, number] = [
    -(r[0] * t[0] + r[3] * t[1] + r[6] * t[2]),
    -(r[1] * t[0] + r[4] * t[1] + r[7] * t[2]),
    -(r[2] * t[0] + r[5] * t[1] + r[8] * t[2]),
  ];
  const xAxis = [r[0], r[1], r[2]];
  const yAxis = [-r[3], -r[4], -r[5]]; // three +Y = OpenCV -Y
  const zAxis = [-r[6], -r[7], -r[8]]; // three +Z = OpenCV -Z (backwards)
  const matrixWorld = [...xAxis, 0, ...yAxis, 0, ...zAxis, 0, ...c, 1];
  const fovDeg = (2 * Math.atan(cam.height / 2 / cam.fy) * 180) / Math.PI;
  const forward = [r[6], r[7], r[8]];
  const depth = Math.max(0.5, -(forward[0] * c[0] + forward[1] * c[1] + forward[2] * c[2]));
  const target: [number, number, number] = [c[0] + forward[0] * depth, c[1] + forward[1] * depth, c[2] + forward[2] * depth];
  return { position: c, matrixWorld, fovDeg, target, up: [yAxis[0], yAxis[1], yAxis[2]] };
}

/**
 * OpenCV camera of a three.js camera pose (column-major camera-to-world matrix), for a
 * width x height image with the principal point at the centre.
 */
export function cameraFromPose(matrixWorld: readonly number[], fovDeg: number, width: number, height: number): Camera {
  const e = matrixWorld;
  const x = [e[0], e[1], e[2]];
  const down = [-e[4], -e[5], -e[6]];
  const fwd = [-e[8], -e[9], -e[10]];
  const c = [e[12], e[13], e[14]];
  const rows = [x, down, fwd];
  const w2c: number[] = [];
  for (const row of rows) w2c.push(row[0], row[1], row[2], -(row[0] * c[0] + row[1] * c[1] + row[2] * c[2]));
  w2c.push(0, 0, 0, 1);
  const f = height / 2 / Math.tan((fovDeg * Math.PI) / 360);
  return { width, height, fx: f, fy: f, cx: width / 2, cy: height / 2, world_to_camera: w2c };
}
