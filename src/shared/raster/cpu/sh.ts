// View-dependent colour: real spherical harmonics of degree 0-3 as in 3D Gaussian Splatting.
// Inputs: Splats (colors hold 0.5 + SH_C0 * f_dc, sh.rest holds bands 1..degree as [N, K, 3])
// and a Camera. Outputs: evaluated colours [N, 3] and, backward, gradients on colors, rest and
// the mean (through the view direction). Invariant: a scene without `sh` keeps its stored colours
// untouched (no clamp, so every SplatBench image is bit-for-bit unchanged); with `sh`, colour =
// max(0, colors + sum_k b_k(d) rest_k) with d = normalize(mean - camera position), 3DGS's signs.
import type { Floats, Splats } from '../../scene/splats';
import type { Camera } from '../types';

export const SH_C0 = 0.28209479177387814;
const C1 = 0.4886025119029199;
const C2 = [1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396];
const C3 = [-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154, -0.4570457994644658, 1.445305721320277, -0.5900435899266435];

/** Coefficients per channel beyond the DC term for a degree: (degree + 1)^2 - 1. */
export function shRestCount(degree: number): number {
  return (degree + 1) * (degree + 1) - 1;
}

/** Camera centre in world coordinates: -W^T t for x_cam = W x + t. */
export function cameraPosition(camera: Camera): [number, number, number] {
  const m = camera.world_to_camera;
  const t = [m[3], m[7], m[11]];
  return [0, 1, 2].map((c) => -(m[c] * t[0] + m[4 + c] * t[1] + m[8 + c] * t[2])) as [number, number, number];
}

/**
 * Basis values b_1..b_K of a unit direction (x, y, z) into out[0..K-1] (K from the degree), in
 * 3DGS's order and signs (real SH with the Condon-Shortley phase).
 */
export function shBasis(degree: number, x: number, y: number, z: number, out: Float64Array): void {
  if (degree < 1) return;
  out[0] = -C1 * y;
  out[1] = C1 * z;
  out[2] = -C1 * x;
  if (degree < 2) return;
  const xx = x * x;
  const yy = y * y;
  const zz = z * z;
  out[3] = C2[0] * x * y;
  out[4] = C2[1] * y * z;
  out[5] = C2[2] * (2 * zz - xx - yy);
  out[6] = C2[3] * x * z;
  out[7] = C2[4] * (xx - yy);
  if (degree < 3) return;
  out[8] = C3[0] * y * (3 * xx - yy);
  out[9] = C3[1] * x * y * z;
  out[10] = C3[2] * y * (4 * zz - xx - yy);
  out[11] = C3[3] * z * (2 * zz - 3 * xx - 3 * yy);
  out[12] = C3[4] * x * (4 * zz - xx - yy);
  out[13] = C3[5] * z * (xx - yy);
  out[14] = C3[6] * x * (xx - 3 * yy);
}

/** Partial derivatives of the basis with respect to (x, y, z) as independent variables: out[k*3 + axis]. */
export function shBasisGrad(degree: number, x: number, y: number, z: number, out: Float64Array): void {
  const set = (k: number, gx: number, gy: number, gz: number): void => {
    out[k * 3] = gx;
    out[k * 3 + 1] = gy;
    out[k * 3 + 2] = gz;
  };
  if (degree < 1) return;
  set(0, 0, -C1, 0);
  set(1, 0, 0, C1);
  set(2, -C1, 0, 0);
  if (degree < 2) return;
  const xx = x * x;
  const yy = y * y;
  const zz = z * z;
  set(3, C2[0] * y, C2[0] * x, 0);
  set(4, 0, C2[1] * z, C2[1] * y);
  set(5, -2 * C2[2] * x, -2 * C2[2] * y, 4 * C2[2] * z);
  set(6, C2[3] * z, 0, C2[3] * x);
  set(7, 2 * C2[4] * x, -2 * C2[4] * y, 0);
  if (degree < 3) return;
  set(8, C3[0] * 6 * x * y, C3[0] * (3 * xx - 3 * yy), 0);
  set(9, C3[1] * y * z, C3[1] * x * z, C3[1] * x * y);
  set(10, C3[2] * -2 * x * y, C3[2] * (4 * zz - xx - 3 * yy), C3[2] * 8 * y * z);
  set(11, C3[3] * -6 * x * z, C3[3] * -6 * y * z, C3[3] * (6 * zz - 3 * xx - 3 * yy));
  set(12, C3[4] * (4 * zz - 3 * xx - yy), C3[4] * -2 * x * y, C3[4] * 8 * x * z);
  set(13, C3[5] * 2 * x * z, C3[5] * -2 * y * z, C3[5] * (xx - yy));
  set(14, C3[6] * (3 * xx - 3 * yy), C3[6] * -6 * x * y, 0);
}

/** Options of the evaluation: `maxDegree` caps the bands used (the debugger's SH-band toggle). */
export interface ShOptions {
  maxDegree?: number;
}

/** Degree actually evaluated for a scene (0 for flat colour). */
export function effectiveDegree(splats: Splats, opts: ShOptions = {}): number {
  if (!splats.sh) return 0;
  return Math.max(0, Math.min(splats.sh.degree, opts.maxDegree ?? 3));
}

/**
 * Colours of every Gaussian seen from `camera`, [N, 3]. Without `sh` this is `splats.colors`
 * itself (same object), so flat scenes composite exactly the stored values.
 */
export function viewColors(splats: Splats, camera: Camera, opts: ShOptions = {}): Floats {
  if (!splats.sh) return splats.colors;
  const n = splats.count;
  const degree = effectiveDegree(splats, opts);
  const k = shRestCount(splats.sh.degree);
  const used = shRestCount(degree);
  const rest = splats.sh.rest;
  const [ex, ey, ez] = cameraPosition(camera);
  const basis = new Float64Array(15);
  const out = new Float64Array(n * 3);
  const { means, colors } = splats;
  for (let i = 0; i < n; i++) {
    let dx = means[i * 3] - ex;
    let dy = means[i * 3 + 1] - ey;
    let dz = means[i * 3 + 2] - ez;
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (len > 0) {
      dx /= len;
      dy /= len;
      dz /= len;
    }
    shBasis(degree, dx, dy, dz, basis);
    for (let c = 0; c < 3; c++) {
      let v = colors[i * 3 + c];
      for (let j = 0; j < used; j++) v += basis[j] * rest[(i * k + j) * 3 + c];
      out[i * 3 + c] = v > 0 ? v : 0;
    }
  }
  return out;
}

/** Gradients of the SH evaluation. */
export interface ShGrads {
  v_colors: Float64Array; // [N, 3] on the stored colours (the DC term)
  v_rest: Float64Array; // [N, K, 3]
  v_means: Float64Array; // [N, 3] through the view direction
}

/**
 * Backward of viewColors: `v_view` [N, 3] is the gradient on the evaluated colours. The 0 clamp
 * passes no gradient where the unclamped colour is negative. Without `sh`, v_colors = v_view
 * and the rest are zeros of the right size.
 */
export function viewColorsBackward(splats: Splats, camera: Camera, v_view: ArrayLike<number>, opts: ShOptions = {}): ShGrads {
  const n = splats.count;
  const out: ShGrads = { v_colors: Float64Array.from(v_view), v_rest: new Float64Array(0), v_means: new Float64Array(n * 3) };
  if (!splats.sh) return out;
  const degree = effectiveDegree(splats, opts);
  const k = shRestCount(splats.sh.degree);
  const used = shRestCount(degree);
  const rest = splats.sh.rest;
  out.v_rest = new Float64Array(n * k * 3);
  const [ex, ey, ez] = cameraPosition(camera);
  const basis = new Float64Array(15);
  const dbasis = new Float64Array(45);
  const { means, colors } = splats;
  for (let i = 0; i < n; i++) {
    const rx = means[i * 3] - ex;
    const ry = means[i * 3 + 1] - ey;
    const rz = means[i * 3 + 2] - ez;
    const len = Math.sqrt(rx * rx + ry * ry + rz * rz);
    const inv = len > 0 ? 1 / len : 0;
    const dx = len > 0 ? rx * inv : rx;
    const dy = len > 0 ? ry * inv : ry;
    const dz = len > 0 ? rz * inv : rz;
    shBasis(degree, dx, dy, dz, basis);
    shBasisGrad(degree, dx, dy, dz, dbasis);
    let gx = 0;
    let gy = 0;
    let gz = 0;
    for (let c = 0; c < 3; c++) {
      let v = colors[i * 3 + c];
      for (let j = 0; j < used; j++) v += basis[j] * rest[(i * k + j) * 3 + c];
      const g = v > 0 ? v_view[i * 3 + c] : 0;
      out.v_colors[i * 3 + c] = g;
      if (g === 0) continue;
      for (let j = 0; j < used; j++) {
        const coef = rest[(i * k + j) * 3 + c];
        out.v_rest[(i * k + j) * 3 + c] = g * basis[j];
        gx += g * coef * dbasis[j * 3];
        gy += g * coef * dbasis[j * 3 + 1];
        gz += g * coef * dbasis[j * 3 + 2];
      }
    }
    // d = r / |r|: dL/dr = (g - d (d . g)) / |r|.
    const dot = gx * dx + gy * dy + gz * dz;
    out.v_means[i * 3] = (gx - dx * dot) * inv;
    out.v_means[i * 3 + 1] = (gy - dy * dot) * inv;
    out.v_means[i * 3 + 2] = (gz - dz * dot) * inv;
  }
  return out;
}
