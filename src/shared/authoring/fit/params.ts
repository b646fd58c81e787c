// The fit's parameters in unconstrained form, their mapping to a renderable scene, the chain
// rule from scene gradients back to them, and the projection onto the player's limits.
// Layout (float64, N Gaussians): means [N, 3] world units; logScales [N, 3] natural log of the
// standard deviations; quats [N, 4] raw (w, x, y, z), renormalised after each step; colors
// [N, 3] plain RGB clamped to [0, 1] (not logits: white and black parts sit at the bounds and a
// sigmoid would stall there); opacityLogits [N], opacity = sigmoid(logit).
// Invariant: after project(), toSplats/toRecords give scenes inside the limits players have:
// positions in [-1.25, 1.25]^3, scales in [0.005, 0.5], opacity in [0.05, 1], unit quaternions.
import { OPACITY_MIN, POS_LIMIT, SCALE_MAX, SCALE_MIN } from '../../scene/policy';
import type { GaussianRecord } from '../../scene/gaussian';
import { emptySplats, type Splats } from '../../scene/splats';
import type { SplatGrads } from '../../raster/types';

/** Opacity logit ceiling: sigmoid(8) = 0.99966, so opacity stays below 1 and gradients stay alive. */
export const LOGIT_MAX = 8;
export const LOGIT_MIN = Math.log(OPACITY_MIN / (1 - OPACITY_MIN));
const LOG_SCALE_MIN = Math.log(SCALE_MIN);
const LOG_SCALE_MAX = Math.log(SCALE_MAX);

export interface FitParams {
  count: number;
  means: Float64Array; // [N, 3]
  logScales: Float64Array; // [N, 3]
  quats: Float64Array; // [N, 4]
  colors: Float64Array; // [N, 3]
  opacityLogits: Float64Array; // [N]
}

export type ParamName = 'means' | 'logScales' | 'quats' | 'colors' | 'opacityLogits';
export const PARAM_NAMES: readonly ParamName[] = ['means', 'logScales', 'quats', 'colors', 'opacityLogits'];

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
const clamp = (v: number, lo: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

export function paramsFromRecords(records: readonly GaussianRecord[]): FitParams {
  const n = records.length;
  const p: FitParams = {
    count: n,
    means: new Float64Array(n * 3),
    logScales: new Float64Array(n * 3),
    quats: new Float64Array(n * 4),
    colors: new Float64Array(n * 3),
    opacityLogits: new Float64Array(n),
  };
  records.forEach((r, i) => {
    for (let k = 0; k < 3; k++) {
      p.means[i * 3 + k] = r.pos[k];
      p.logScales[i * 3 + k] = Math.log(r.scale[k]);
      p.colors[i * 3 + k] = r.color[k];
    }
    for (let k = 0; k < 4; k++) p.quats[i * 4 + k] = r.quat[k];
    const o = clamp(r.opacity, OPACITY_MIN, sigmoid(LOGIT_MAX));
    p.opacityLogits[i] = Math.log(o / (1 - o));
  });
  project(p);
  return p;
}

/** Renderable scene of the parameters (float64, so the CPU reference keeps full precision). */
export function toSplats(p: FitParams, out: Splats = emptySplats(p.count, 'f64')): Splats {
  for (let i = 0; i < p.count * 3; i++) {
    out.means[i] = p.means[i];
    out.scales[i] = Math.exp(p.logScales[i]);
    out.colors[i] = p.colors[i];
  }
  out.quats.set(p.quats);
  for (let i = 0; i < p.count; i++) out.opacities[i] = sigmoid(p.opacityLogits[i]);
  return out;
}

/** Records (ids 0..N-1) of the parameters; call project() first so they are inside the limits. */
export function toRecords(p: FitParams): GaussianRecord[] {
  const s = toSplats(p);
  const out: GaussianRecord[] = [];
  for (let i = 0; i < p.count; i++) {
    const v3 = (a: ArrayLike<number>): [number, number, number] => [a[i * 3], a[i * 3 + 1], a[i * 3 + 2]];
    out.push({
      id: i,
      pos: v3(s.means),
      // exp(log(x)) can land an ulp outside the limits; records must be exactly inside.
      scale: v3(s.scales).map((v) => clamp(v, SCALE_MIN, SCALE_MAX)) as [number, number, number],
      quat: [s.quats[i * 4], s.quats[i * 4 + 1], s.quats[i * 4 + 2], s.quats[i * 4 + 3]],
      color: v3(s.colors),
      opacity: clamp(s.opacities[i], OPACITY_MIN, 1),
    });
  }
  return out;
}

/** Zeroed gradient arrays shaped like the parameters. */
export function zeroGrads(n: number): Record<ParamName, Float64Array> {
  return {
    means: new Float64Array(n * 3),
    logScales: new Float64Array(n * 3),
    quats: new Float64Array(n * 4),
    colors: new Float64Array(n * 3),
    opacityLogits: new Float64Array(n),
  };
}

/**
 * Chain rule from scene gradients (w.r.t. the rendered Splats `s`) to the unconstrained
 * parameters: d/d log s = s * d/ds; d/d logit = o (1 - o) d/do; means, colours, quats pass through.
 * Adds into `out` (so several views can be accumulated).
 */
export function accumulateGrads(s: Splats, g: SplatGrads, out: Record<ParamName, Float64Array>): void {
  const n = s.count;
  for (let i = 0; i < n * 3; i++) {
    out.means[i] += g.v_means[i];
    out.logScales[i] += g.v_scales[i] * s.scales[i];
    out.colors[i] += g.v_colors[i];
  }
  for (let i = 0; i < n * 4; i++) out.quats[i] += g.v_quats[i];
  for (let i = 0; i < n; i++) {
    const o = s.opacities[i];
    out.opacityLogits[i] += g.v_opacities[i] * o * (1 - o);
  }
}

/** Projects the parameters back onto the scene limits (in place). */
export function project(p: FitParams): void {
  for (let i = 0; i < p.count * 3; i++) {
    p.means[i] = clamp(p.means[i], -POS_LIMIT, POS_LIMIT);
    p.logScales[i] = clamp(p.logScales[i], LOG_SCALE_MIN, LOG_SCALE_MAX);
    p.colors[i] = clamp(p.colors[i], 0, 1);
  }
  for (let i = 0; i < p.count; i++) {
    p.opacityLogits[i] = clamp(p.opacityLogits[i], LOGIT_MIN, LOGIT_MAX);
    const q = p.quats;
    const o = i * 4;
    const norm = Math.hypot(q[o], q[o + 1], q[o + 2], q[o + 3]);
    if (norm > 1e-12) for (let k = 0; k < 4; k++) q[o + k] /= norm;
    else q.set([1, 0, 0, 0], o);
  }
}
