// Backward of the projection stage: 2D gradients -> gradients of the 3D parameters, float64.
// Inputs: Splats, Camera, v_means2d [N, 2] and v_conics [N, 3] (b counted once). Output: v_means
// [N, 3], v_scales [N, 3], v_quats [N, 4] (raw stored quaternions, through the normalisation).
// Invariant: the exact derivative of projectGaussian; where x/z (or y/z) is clamped the Jacobian
// does not depend on x (or y) at all, as in gsplat; culled Gaussians (radii 0) get zeros.
import type { Splats } from '../../scene/splats';
import type { Camera, Projection } from '../types';
import type { Mat3 } from '../../math/vec3';
import { COV2D_DILATION, cameraMath } from './camera-math';
import { projectGaussian, type ProjectedGaussian } from './project-forward';

export interface ProjectBackwardGrads {
  v_means: Float64Array; // [N, 3]
  v_scales: Float64Array; // [N, 3]
  v_quats: Float64Array; // [N, 4]
}

// Per-Gaussian temporaries, reused (this file's functions are synchronous, one thread each): the
// fit calls the backward every step, and arrays per Gaussian were most of its garbage (issue 40
// item 1). Typed arrays hold the same doubles as the plain arrays they replace.
const GJ = new Float64Array(6); // G J [2, 3]
const VM = new Float64Array(9); // J^T G J [3, 3]
const VJ = new Float64Array(6); // 2 G J M [2, 3]
const VT = new Float64Array(3); // camera-space mean gradient
const XW = new Float64Array(9);
const VSIGMA = new Float64Array(9);
const VR = new Float64Array(9);
const GR = new Float64Array(9);
const QN = new Float64Array(4);
const VN = new Float64Array(4);

export function projectBackward(
  splats: Splats,
  camera: Camera,
  projection: Projection,
  v_means2d: ArrayLike<number>,
  v_conics: ArrayLike<number>,
  v_compensation?: ArrayLike<number>,
): ProjectBackwardGrads {
  const n = splats.count;
  const cam = cameraMath(camera);
  const out: ProjectBackwardGrads = {
    v_means: new Float64Array(n * 3),
    v_scales: new Float64Array(n * 3),
    v_quats: new Float64Array(n * 4),
  };
  for (let i = 0; i < n; i++) {
    if (projection.radii[i * 2] === 0) continue;
    const p = projectGaussian(splats, i, cam, v_compensation !== undefined);
    if (!p) continue;
    const { fx, fy, w } = cam;
    const [x, y, z] = p.tc;

    // conic = inverse(cov2d): gradients on the cov2d entries (A, B, C) = (xx, xy, yy).
    const [A, B, C] = p.cov2d;
    const [ga, gb, gc] = [v_conics[i * 3], v_conics[i * 3 + 1], v_conics[i * 3 + 2]];
    const D = A * C - B * B;
    const D2 = D * D;
    const gA = (-ga * C * C + gb * B * C - gc * B * B) / D2;
    const gB = (2 * ga * B * C - gb * (D + 2 * B * B) + 2 * gc * A * B) / D2;
    let gC = (-ga * B * B + gb * A * B - gc * A * A) / D2;
    let gA2 = gA;
    let gB2 = gB;
    const vComp = v_compensation ? v_compensation[i] : 0;
    if (vComp !== 0 && p.compensation > 0) {
      // compensation = sqrt(r), r = det(cov2d - 0.3 I) / det(cov2d).
      const d = COV2D_DILATION;
      const detRaw = (A - d) * (C - d) - B * B;
      const k = (0.5 / p.compensation) * vComp;
      gA2 += (k * ((C - d) * D - detRaw * C)) / D2;
      gC += (k * ((A - d) * D - detRaw * A)) / D2;
      gB2 += (k * 2 * B * (detRaw - D)) / D2;
    }
    // Symmetric upstream on cov2d = J M J^T (B appears in both off-diagonal slots).
    const G0 = gA2; // G [2, 2] row-major: G0 G1 / G1 G3
    const G1 = 0.5 * gB2;
    const G3 = gC;
    const J = p.j; // [2, 3]
    const M = p.covCam;

    // GJ = G J [2, 3]; v_M = J^T G J [3, 3]; v_J = 2 G J M [2, 3].
    for (let c = 0; c < 3; c++) {
      GJ[c] = G0 * J[c] + G1 * J[3 + c];
      GJ[3 + c] = G1 * J[c] + G3 * J[3 + c];
    }
    const vM = VM;
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) vM[r * 3 + c] = J[r] * GJ[c] + J[3 + r] * GJ[3 + c];
    const vJ = VJ;
    for (let r = 0; r < 2; r++) for (let c = 0; c < 3; c++) vJ[r * 3 + c] = 2 * (GJ[r * 3] * M[c] + GJ[r * 3 + 1] * M[3 + c] + GJ[r * 3 + 2] * M[6 + c]);

    // Camera-space mean: through J and through the projected mean.
    const vmx = v_means2d[i * 2];
    const vmy = v_means2d[i * 2 + 1];
    const vt = VT;
    vt[0] = (fx / z) * vmx;
    vt[1] = (fy / z) * vmy;
    vt[2] = (-fx * x * vmx - fy * y * vmy) / (z * z);
    vt[2] += (-fx / (z * z)) * vJ[0] + (-fy / (z * z)) * vJ[4];
    addClampedColumn(vt, 0, p.clampX, fx, x, z, J[2], vJ[2]);
    addClampedColumn(vt, 1, p.clampY, fy, y, z, J[5], vJ[5]);
    for (let k = 0; k < 3; k++) out.v_means[i * 3 + k] = w[k] * vt[0] + w[3 + k] * vt[1] + w[6 + k] * vt[2];

    // M = W Sigma W^T -> v_Sigma = W^T v_M W; Sigma = R diag(s^2) R^T.
    const vSigma = congruenceT(w, vM);
    scaleRotationBackward(splats, i, p, vSigma, out);
  }
  return out;
}

/**
 * J[axis][2] = -f * u_c / z with u_c = clamp(coord / z). Unclamped: -f coord / z^2, so it depends
 * on coord and z; clamped: u_c is a constant and only the 1 / z factor varies.
 */
function addClampedColumn(vt: Float64Array, axis: 0 | 1, clamped: boolean, f: number, coord: number, z: number, jValue: number, vJ: number): void {
  if (clamped) {
    vt[2] += (-jValue / z) * vJ;
  } else {
    vt[axis] += (-f / (z * z)) * vJ;
    vt[2] += ((2 * f * coord) / (z * z * z)) * vJ;
  }
}

/** W^T X W for row-major W and X (into VSIGMA). */
function congruenceT(w: Readonly<Mat3>, x: Float64Array): Float64Array {
  const xw = XW;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) xw[r * 3 + c] = x[r * 3] * w[c] + x[r * 3 + 1] * w[3 + c] + x[r * 3 + 2] * w[6 + c];
  const out = VSIGMA;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[r * 3 + c] = w[r] * xw[c] + w[3 + r] * xw[3 + c] + w[6 + r] * xw[6 + c];
  return out;
}

/** v_Sigma (symmetric) -> v_scales and v_quats (raw, through the normalisation) of Gaussian i. */
function scaleRotationBackward(splats: Splats, i: number, p: ProjectedGaussian, vSigma: Float64Array, out: ProjectBackwardGrads): void {
  const R = p.rot;
  const sc = splats.scales;
  // RtVR = R^T v_Sigma R; v_s_k = 2 s_k (R^T v_Sigma R)_kk.
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) VR[r * 3 + c] = vSigma[r * 3] * R[c] + vSigma[r * 3 + 1] * R[3 + c] + vSigma[r * 3 + 2] * R[6 + c];
  for (let k = 0; k < 3; k++) {
    const diag = R[k] * VR[k] + R[3 + k] * VR[3 + k] + R[6 + k] * VR[6 + k];
    out.v_scales[i * 3 + k] = 2 * sc[i * 3 + k] * diag;
  }
  // v_R = (v_Sigma + v_Sigma^T) R D = 2 v_Sigma R D with D = diag(s^2).
  const g = GR;
  for (let idx = 0; idx < 9; idx++) g[idx] = 2 * VR[idx] * sc[i * 3 + (idx % 3)] * sc[i * 3 + (idx % 3)];
  const qs = splats.quats;
  const norm = Math.hypot(qs[i * 4], qs[i * 4 + 1], qs[i * 4 + 2], qs[i * 4 + 3]);
  const qw = qs[i * 4] / norm;
  const qx = qs[i * 4 + 1] / norm;
  const qy = qs[i * 4 + 2] / norm;
  const qz = qs[i * 4 + 3] / norm;
  const vn = VN;
  vn[0] = 2 * (-qz * g[1] + qy * g[2] + qz * g[3] - qx * g[5] - qy * g[6] + qx * g[7]);
  vn[1] = 2 * (qy * g[1] + qz * g[2] + qy * g[3] - 2 * qx * g[4] - qw * g[5] + qz * g[6] + qw * g[7] - 2 * qx * g[8]);
  vn[2] = 2 * (-2 * qy * g[0] + qx * g[1] + qw * g[2] + qx * g[3] + qz * g[5] - qw * g[6] + qz * g[7] - 2 * qy * g[8]);
  vn[3] = 2 * (-2 * qz * g[0] - qw * g[1] + qx * g[2] + qw * g[3] - 2 * qz * g[4] + qy * g[5] + qx * g[6] + qy * g[7]);
  // Through q_n = q / |q|: v_q = (v_n - q_n (q_n . v_n)) / |q|.
  const qn = QN;
  qn[0] = qw;
  qn[1] = qx;
  qn[2] = qy;
  qn[3] = qz;
  const proj = vn[0] * qw + vn[1] * qx + vn[2] * qy + vn[3] * qz;
  for (let k = 0; k < 4; k++) out.v_quats[i * 4 + k] = (vn[k] - qn[k] * proj) / norm;
}
