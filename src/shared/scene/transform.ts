// Rigid (plus optional scale) transform of a set of Gaussians about their centroid, as
// transform_group applies it: p' = c + R K (p - c) + t, Sigma' = R K Sigma K R^T.
// Inputs: records, a scale K (number or per world axis), a rotation R (degrees about Z or XYZ
// Euler degrees), a translation t. Output: new records (inputs untouched) and clamp warnings.
// Invariant: every output quaternion is unit length and every scale lies in [0.005, 0.5].
import { covariance3d } from '../math/covariance';
import { eulerToQuat, mat3ToQuat, quatAboutZ, quatMultiply, quatNormalize, quatToMat3, type Quat } from '../math/quaternion';
import { mat3Det, mat3MulVec, type Mat3, type Vec3 } from '../math/vec3';
import { SCALE_MAX, SCALE_MIN } from './policy';
import type { GaussianRecord } from './records';

export interface TransformSpec {
  translate?: Vec3;
  rotateDeg?: number | Vec3;
  scale?: number | Vec3;
}

export function centroid(records: readonly GaussianRecord[]): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (const r of records) for (let k = 0; k < 3; k++) c[k] += r.pos[k];
  const n = Math.max(1, records.length);
  return [c[0] / n, c[1] / n, c[2] / n];
}

/** Eigen-decomposition of a symmetric 3x3 (cyclic Jacobi): values and column eigenvectors. */
export function symmetricEigen(a: Readonly<Mat3>): { values: Vec3; vectors: Mat3 } {
  const m = [...a];
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 32; sweep++) {
    const off = Math.abs(m[1]) + Math.abs(m[2]) + Math.abs(m[5]);
    if (off < 1e-30) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      const apq = m[p * 3 + q];
      if (Math.abs(apq) < 1e-300) continue;
      const theta = (m[q * 3 + q] - m[p * 3 + p]) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        // Columns p and q of m, then rows p and q (m <- J^T m J), and v <- v J.
        const mkp = m[k * 3 + p];
        const mkq = m[k * 3 + q];
        m[k * 3 + p] = c * mkp - s * mkq;
        m[k * 3 + q] = s * mkp + c * mkq;
      }
      for (let k = 0; k < 3; k++) {
        const mpk = m[p * 3 + k];
        const mqk = m[q * 3 + k];
        m[p * 3 + k] = c * mpk - s * mqk;
        m[q * 3 + k] = s * mpk + c * mqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k * 3 + p];
        const vkq = v[k * 3 + q];
        v[k * 3 + p] = c * vkp - s * vkq;
        v[k * 3 + q] = s * vkp + c * vkq;
      }
    }
  }
  return { values: [m[0], m[4], m[8]], vectors: v as Mat3 };
}

/** Rotation of a transform spec as a unit quaternion. */
export function transformRotation(rotateDeg: number | Vec3 | undefined): Quat {
  if (rotateDeg === undefined) return [1, 0, 0, 0];
  return quatNormalize(typeof rotateDeg === 'number' ? quatAboutZ(rotateDeg) : eulerToQuat(rotateDeg));
}

/** New shape (scales, quaternion) of one Gaussian under the world-axis scale k. */
function scaledShape(r: GaussianRecord, k: Vec3): { scale: Vec3; quat: Quat } {
  if (k[0] === k[1] && k[1] === k[2]) return { scale: [r.scale[0] * k[0], r.scale[1] * k[0], r.scale[2] * k[0]], quat: r.quat };
  const cov = covariance3d(r.scale, r.quat);
  const kk = [k[0], k[1], k[2]];
  const scaled = cov.map((v, i) => v * kk[Math.floor(i / 3)] * kk[i % 3]) as Mat3;
  const { values, vectors } = symmetricEigen(scaled);
  const cols = [...vectors] as Mat3;
  if (mat3Det(cols) < 0) for (let row = 0; row < 3; row++) cols[row * 3 + 2] = -cols[row * 3 + 2];
  return { scale: values.map((x) => Math.sqrt(Math.max(0, x))) as Vec3, quat: mat3ToQuat(cols) };
}

export interface TransformResult {
  records: GaussianRecord[];
  oldCentroid: Vec3;
  newCentroid: Vec3;
  clampedIds: number[];
}

export function transformRecords(records: readonly GaussianRecord[], spec: TransformSpec): TransformResult {
  const c = centroid(records);
  const rq = transformRotation(spec.rotateDeg);
  const rm = quatToMat3(rq);
  const k: Vec3 = spec.scale === undefined ? [1, 1, 1] : typeof spec.scale === 'number' ? [spec.scale, spec.scale, spec.scale] : spec.scale;
  const t = spec.translate ?? [0, 0, 0];
  const clampedIds: number[] = [];
  const out = records.map((r) => {
    const d: Vec3 = [(r.pos[0] - c[0]) * k[0], (r.pos[1] - c[1]) * k[1], (r.pos[2] - c[2]) * k[2]];
    const rd = mat3MulVec(rm, d);
    const shape = scaledShape(r, k);
    const scale = shape.scale.map((x) => Math.min(SCALE_MAX, Math.max(SCALE_MIN, x))) as Vec3;
    if (scale.some((x, i) => Math.abs(x - shape.scale[i]) > 1e-12)) clampedIds.push(r.id);
    const next: GaussianRecord = {
      ...r,
      pos: [c[0] + rd[0] + t[0], c[1] + rd[1] + t[1], c[2] + rd[2] + t[2]],
      scale,
      quat: quatNormalize(quatMultiply(rq, shape.quat)),
    };
    return next;
  });
  return { records: out, oldCentroid: c, newCentroid: centroid(out), clampedIds };
}
