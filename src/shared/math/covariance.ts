// 3D covariance of a Gaussian from its scales and rotation: Sigma = R S S^T R^T.
// Inputs: standard deviations along the Gaussian's own axes, a quaternion (w, x, y, z) of any
// length (normalised inside). Output: a symmetric positive semi-definite row-major Mat3.
import { quatToMat3, type Quat } from './quaternion';
import type { Mat3, Vec3 } from './vec3';

/** Sigma = R diag(s^2) R^T, computed from the rotation matrix R. */
export function covarianceFromRotation(scales: Readonly<Vec3>, r: Readonly<Mat3>): Mat3 {
  const d = [scales[0] * scales[0], scales[1] * scales[1], scales[2] * scales[2]];
  const out = new Array<number>(9).fill(0) as Mat3;
  for (let i = 0; i < 3; i++) {
    for (let j = i; j < 3; j++) {
      const v = r[i * 3] * d[0] * r[j * 3] + r[i * 3 + 1] * d[1] * r[j * 3 + 1] + r[i * 3 + 2] * d[2] * r[j * 3 + 2];
      out[i * 3 + j] = v;
      out[j * 3 + i] = v;
    }
  }
  return out;
}

export function covariance3d(scales: Readonly<Vec3>, quat: Readonly<Quat>): Mat3 {
  return covarianceFromRotation(scales, quatToMat3(quat));
}
