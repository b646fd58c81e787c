// Rotations: quaternions (w, x, y, z), rotation matrices and XYZ Euler angles in degrees.
// Inputs: quaternions need not be unit length; every conversion normalises first.
// Invariant: Euler angles mean R = Rz(z) * Ry(y) * Rx(x) (docs/DESIGN.md section 2), i.e. rotate about
// world X first, then Y, then Z; quatToEuler inverts eulerToQuat up to the usual gimbal ambiguity.
import type { Mat3, Vec3 } from './vec3';

export type Quat = [number, number, number, number]; // (w, x, y, z)

const DEG = Math.PI / 180;

export function quatNorm(q: Readonly<Quat>): number {
  return Math.hypot(q[0], q[1], q[2], q[3]);
}

/** Unit quaternion with the same rotation; throws on a zero or non-finite input. */
export function quatNormalize(q: Readonly<Quat>): Quat {
  const n = quatNorm(q);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`cannot normalise quaternion [${q.join(', ')}]`);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** Hamilton product a * b: rotating by b first, then by a. */
export function quatMultiply(a: Readonly<Quat>, b: Readonly<Quat>): Quat {
  const [aw, ax, ay, az] = a;
  const [bw, bx, by, bz] = b;
  return [
    aw * bw - ax * bx - ay * by - az * bz,
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
  ];
}

/** Rotation about a unit axis by an angle in degrees. */
export function quatFromAxisAngle(axis: Vec3, degrees: number): Quat {
  const h = 0.5 * degrees * DEG;
  const s = Math.sin(h);
  return [Math.cos(h), axis[0] * s, axis[1] * s, axis[2] * s];
}

/** Rotation about the world Z axis (the turntable axis) by an angle in degrees. */
export function quatAboutZ(degrees: number): Quat {
  return quatFromAxisAngle([0, 0, 1], degrees);
}

/** Rotation matrix (row-major) of a quaternion, normalised inside. */
export function quatToMat3(q: Readonly<Quat>): Mat3 {
  const [w, x, y, z] = quatNormalize(q);
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** Unit quaternion of a rotation matrix (Shepperd's method), with w >= 0. */
export function mat3ToQuat(m: Readonly<Mat3>): Quat {
  const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m;
  const trace = m00 + m11 + m22;
  let q: Quat;
  if (trace > 0) {
    const s = 2 * Math.sqrt(trace + 1);
    q = [0.25 * s, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [(m21 - m12) / s, 0.25 * s, (m01 + m10) / s, (m02 + m20) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m02 - m20) / s, (m01 + m10) / s, 0.25 * s, (m12 + m21) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, 0.25 * s];
  }
  const u = quatNormalize(q);
  return u[0] < 0 ? [-u[0], -u[1], -u[2], -u[3]] : u;
}

/** XYZ Euler angles in degrees to a unit quaternion with R = Rz * Ry * Rx. */
export function eulerToQuat(euler: Readonly<Vec3>): Quat {
  const qx = quatFromAxisAngle([1, 0, 0], euler[0]);
  const qy = quatFromAxisAngle([0, 1, 0], euler[1]);
  const qz = quatFromAxisAngle([0, 0, 1], euler[2]);
  return quatMultiply(qz, quatMultiply(qy, qx));
}

/**
 * XYZ Euler angles in degrees (x, z in (-180, 180], y in [-90, 90]) of a quaternion, such that
 * eulerToQuat(quatToEuler(q)) is the same rotation. At y = +-90 deg x is set to 0.
 */
export function quatToEuler(q: Readonly<Quat>): Vec3 {
  const m = quatToMat3(q);
  // For R = Rz Ry Rx: R[2][0] = -sin(y), R[2][1] = cos(y) sin(x), R[2][2] = cos(y) cos(x),
  // R[1][0] = sin(z) cos(y), R[0][0] = cos(z) cos(y).
  // y from atan2 rather than asin(-R[2][0]) stays accurate near +-90 deg.
  const cosY = Math.hypot(m[0], m[3]);
  const y = Math.atan2(-m[6], cosY);
  if (cosY > 1e-9) {
    return [Math.atan2(m[7], m[8]) / DEG, y / DEG, Math.atan2(m[3], m[0]) / DEG];
  }
  // Gimbal lock: only x - z (or x + z) is determined; put it all in z.
  // With x = 0: R[0][1] = -sin(z), R[1][1] = cos(z).
  return [0, y / DEG, Math.atan2(-m[1], m[4]) / DEG];
}
