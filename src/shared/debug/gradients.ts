// Per-Gaussian gradient summaries for the debugger's gradient view.
// Inputs: SplatGrads (v_means [N, 3], v_scales [N, 3], v_quats [N, 4], v_colors [N, 3],
// v_opacities [N]), the Splats and Camera they belong to. Outputs: magnitudes [N] of one
// parameter's gradient and the image-plane direction [N, 2] (pixels per unit step) of moving each
// mean along a 3D vector. Invariant: a magnitude is the Euclidean norm of that Gaussian's row
// (the absolute value for opacity), so it is 0 exactly when the gradient row is 0.
import type { Camera, SplatGrads, Splats } from '../raster/types';

export const GRADIENT_PARAMS = ['means', 'scales', 'quats', 'colors', 'opacities'] as const;
export type GradientParam = (typeof GRADIENT_PARAMS)[number];

const WIDTH: Record<GradientParam, number> = { means: 3, scales: 3, quats: 4, colors: 3, opacities: 1 };

export function gradientRows(grads: SplatGrads, param: GradientParam): { values: Float64Array; width: number } {
  const values = { means: grads.v_means, scales: grads.v_scales, quats: grads.v_quats, colors: grads.v_colors, opacities: grads.v_opacities }[param];
  return { values, width: WIDTH[param] };
}

export function gradientMagnitudes(grads: SplatGrads, param: GradientParam): Float64Array {
  const { values, width } = gradientRows(grads, param);
  const n = values.length / width;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < width; j++) s += values[i * width + j] ** 2;
    out[i] = Math.sqrt(s);
  }
  return out;
}

/**
 * Image-plane velocity of each projected mean when it moves along `vectors` [N, 3] (world units):
 * d(pixel)/dt = J W v with the unclamped perspective Jacobian at the mean, in pixels per world
 * unit. Rows are 0 for means behind the camera.
 */
export function projectDirections(splats: Splats, camera: Camera, vectors: ArrayLike<number>): Float64Array {
  const m = camera.world_to_camera;
  const out = new Float64Array(splats.count * 2);
  for (let i = 0; i < splats.count; i++) {
    const px = splats.means[i * 3];
    const py = splats.means[i * 3 + 1];
    const pz = splats.means[i * 3 + 2];
    const x = m[0] * px + m[1] * py + m[2] * pz + m[3];
    const y = m[4] * px + m[5] * py + m[6] * pz + m[7];
    const z = m[8] * px + m[9] * py + m[10] * pz + m[11];
    if (!(z > 0)) continue;
    const vx = vectors[i * 3];
    const vy = vectors[i * 3 + 1];
    const vz = vectors[i * 3 + 2];
    const cx = m[0] * vx + m[1] * vy + m[2] * vz;
    const cy = m[4] * vx + m[5] * vy + m[6] * vz;
    const cz = m[8] * vx + m[9] * vy + m[10] * vz;
    out[i * 2] = camera.fx * (cx / z - (x * cz) / (z * z));
    out[i * 2 + 1] = camera.fy * (cy / z - (y * cz) / (z * z));
  }
  return out;
}
