// Projection stage of the CPU reference rasterizer (docs/DESIGN.md section 3), float64 inside.
// Inputs: Splats (f32 or f64) and a Camera. Output: Projection (means2d [N, 2], conics [N, 3],
// depths [N], radii [N, 2]). Invariant: radii are 0 exactly for Gaussians culled by the near
// plane, a non-positive 2D determinant, opacity below 1/255 or a box entirely off the image; a
// non-culled Gaussian has alpha < 1/255 at every pixel centre outside its (rx, ry) box.
import type { Splats } from '../../scene/splats';
import type { Camera, Projection, RasterOptions } from '../types';
import { quatToMat3, type Quat } from '../../math/quaternion';
import { covarianceFromRotation } from '../../math/covariance';
import type { Mat3 } from '../../math/vec3';
import { COV2D_DILATION, NEAR_PLANE, cameraMath, type CameraMath } from './camera-math';

/** Everything the backward pass needs about one projected Gaussian. */
export interface ProjectedGaussian {
  tc: [number, number, number]; // camera-space mean
  rot: Mat3; // R of the normalised quaternion
  covCam: Mat3; // W Sigma W^T
  j: [number, number, number, number, number, number]; // Jacobian [2, 3] row-major
  clampX: boolean; // x / z was clamped, so J has no dependency on x
  clampY: boolean;
  cov2d: [number, number, number]; // (xx, xy, yy) after dilation, px^2
  conic: [number, number, number];
  mean2d: [number, number];
  /** Antialiasing compensation sqrt(det(cov2d - 0.3 I) / det(cov2d)); 1 when the mode is off. */
  compensation: number;
}

/** Projects Gaussian i, or returns null when it is behind the near plane or degenerate. */
export function projectGaussian(splats: Splats, i: number, cam: CameraMath, antialiased = false): ProjectedGaussian | null {
  const { means, scales, quats } = splats;
  const mx = means[i * 3];
  const my = means[i * 3 + 1];
  const mz = means[i * 3 + 2];
  const w = cam.w;
  const x = w[0] * mx + w[1] * my + w[2] * mz + cam.t[0];
  const y = w[3] * mx + w[4] * my + w[5] * mz + cam.t[1];
  const z = w[6] * mx + w[7] * my + w[8] * mz + cam.t[2];
  if (!(z >= NEAR_PLANE)) return null;

  const q: Quat = [quats[i * 4], quats[i * 4 + 1], quats[i * 4 + 2], quats[i * 4 + 3]];
  const rot = quatToMat3(q);
  const sigma = covarianceFromRotation([scales[i * 3], scales[i * 3 + 1], scales[i * 3 + 2]], rot);
  const covCam = congruence(w, sigma);

  const u = x / z;
  const v = y / z;
  const uc = Math.min(cam.limXPos, Math.max(-cam.limXNeg, u));
  const vc = Math.min(cam.limYPos, Math.max(-cam.limYNeg, v));
  // tx = z * uc, so -fx * tx / z^2 = -fx * uc / z.
  const j: ProjectedGaussian['j'] = [cam.fx / z, 0, (-cam.fx * uc) / z, 0, cam.fy / z, (-cam.fy * vc) / z];

  // cov2d = J covCam J^T + 0.3 I
  const a0 = j[0] * covCam[0] + j[2] * covCam[6];
  const a1 = j[0] * covCam[1] + j[2] * covCam[7];
  const a2 = j[0] * covCam[2] + j[2] * covCam[8];
  const b1 = j[4] * covCam[4] + j[5] * covCam[7];
  const b2 = j[4] * covCam[5] + j[5] * covCam[8];
  const cxx = a0 * j[0] + a2 * j[2] + COV2D_DILATION;
  const cxy = a1 * j[4] + a2 * j[5];
  const cyy = b1 * j[4] + b2 * j[5] + COV2D_DILATION;
  const det = cxx * cyy - cxy * cxy;
  if (!(det > 0)) return null;
  const detRaw = (cxx - COV2D_DILATION) * (cyy - COV2D_DILATION) - cxy * cxy;
  const compensation = antialiased ? Math.sqrt(Math.max(0, detRaw / det)) : 1;

  return {
    tc: [x, y, z],
    rot,
    covCam,
    j,
    clampX: uc !== u,
    clampY: vc !== v,
    cov2d: [cxx, cxy, cyy],
    conic: [cyy / det, -cxy / det, cxx / det],
    mean2d: [cam.fx * u + cam.cx, cam.fy * v + cam.cy],
    compensation,
  };
}

/**
 * Half-extents (rx, ry) of the exact alpha >= 1/255 region: alpha = o exp(-q/2) with q = d^T conic d,
 * so q <= q_max = 2 ln(255 o), an ellipse whose x half-extent is sqrt(q_max cov2d_xx). [0, 0] when
 * no pixel can pass the threshold or the box misses the image.
 */
export function exactRadii(p: ProjectedGaussian, opacity: number, width: number, height: number): [number, number] {
  if (!(opacity * 255 > 1)) return [0, 0];
  const qMax = 2 * Math.log(255 * opacity);
  const rx = Math.min(Math.ceil(Math.sqrt(qMax * p.cov2d[0])), 1 << 30);
  const ry = Math.min(Math.ceil(Math.sqrt(qMax * p.cov2d[2])), 1 << 30);
  const [mx, my] = p.mean2d;
  if (!(rx > 0 && ry > 0)) return [0, 0];
  if (mx + rx <= 0 || mx - rx >= width || my + ry <= 0 || my - ry >= height) return [0, 0];
  return [rx, ry];
}

export function projectForward(splats: Splats, camera: Camera, opts: RasterOptions = {}): Projection {
  const n = splats.count;
  const cam = cameraMath(camera);
  const antialiased = opts.antialiased === true;
  const out: Projection = {
    means2d: new Float64Array(n * 2),
    conics: new Float64Array(n * 3),
    depths: new Float64Array(n),
    radii: new Int32Array(n * 2),
  };
  const opacities = antialiased ? new Float64Array(n) : null;
  if (opacities) out.opacities = opacities;
  for (let i = 0; i < n; i++) {
    const p = projectGaussian(splats, i, cam, antialiased);
    if (!p) continue;
    const o = splats.opacities[i] * p.compensation;
    const [rx, ry] = exactRadii(p, o, cam.width, cam.height);
    if (rx === 0) continue;
    if (opacities) opacities[i] = o;
    out.means2d[i * 2] = p.mean2d[0];
    out.means2d[i * 2 + 1] = p.mean2d[1];
    out.conics.set(p.conic, i * 3);
    out.depths[i] = p.tc[2];
    out.radii[i * 2] = rx;
    out.radii[i * 2 + 1] = ry;
  }
  return out;
}

/** W Sigma W^T for a row-major rotation W and symmetric Sigma. */
function congruence(w: Readonly<Mat3>, s: Readonly<Mat3>): Mat3 {
  const ws = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) ws[r * 3 + c] = w[r * 3] * s[c] + w[r * 3 + 1] * s[3 + c] + w[r * 3 + 2] * s[6 + c];
  }
  const out = new Array<number>(9).fill(0) as Mat3;
  for (let r = 0; r < 3; r++) {
    for (let c = r; c < 3; c++) {
      const v = ws[r * 3] * w[c * 3] + ws[r * 3 + 1] * w[c * 3 + 1] + ws[r * 3 + 2] * w[c * 3 + 2];
      out[r * 3 + c] = v;
      out[c * 3 + r] = v;
    }
  }
  return out;
}
