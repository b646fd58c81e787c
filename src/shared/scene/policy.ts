// The one scene policy (docs/DESIGN.md section 2, "A Gaussian"): the semantic checks of one
// Gaussian's fields after the zod shape check (bounds, colour, scale and opacity clamps, rotation
// to a unit quaternion), used by the environment's tools, every scene file reader, `grade`,
// `render`, the debugger, imports and exports.
// Inputs: the parsed fields of one item and a ScenePolicy. Outputs: normalised values, warnings,
// or the first reason the item is invalid. Invariant: under TASK_POLICY every value returned lies
// inside the scene limits (positions in [-1.25, 1.25]^3, scales in [0.005, 0.5], opacity in
// [0.05, 1], unit quaternions); CAPTURE_POLICY (debugging real captures, deliberately beyond the
// task bounds) keeps any finite position, any positive scale and opacity in (0, 1].
import { eulerToQuat, quatNormalize, type Quat } from '../math/quaternion';
import type { Vec3 } from '../math/vec3';
import { quoteValue, shortNum } from '../math/format';
import { parseColor } from '../math/color';
import { fromCompact, toCompact, type GaussianRecord } from './gaussian';

export const POS_LIMIT = 1.25;
export const SCALE_MIN = 0.005;
export const SCALE_MAX = 0.5;
export const OPACITY_MIN = 0.05;
export const OPACITY_MAX = 1;

/** Which limits apply: a task's scene, or a capture opened on purpose beyond the task bounds. */
export interface ScenePolicy {
  readonly name: 'task' | 'capture';
  readonly bounded: boolean;
}
export const TASK_POLICY: ScenePolicy = { name: 'task', bounded: true };
export const CAPTURE_POLICY: ScenePolicy = { name: 'capture', bounded: false };

export type Checked<T> = { ok: true; value: T; warnings: string[] } | { ok: false; error: string };

/** The seed's colour error text, e.g. `unknown color '#cacc cb' (use '#rrggbb' or [r,g,b])`. */
export function colorErrorText(value: unknown): string {
  const r = parseColor(value);
  return r.ok ? '' : r.error;
}

/** '#rrggbb' or [r, g, b] in [0, 1] to an RGB triple. */
export function checkColor(value: unknown): Checked<Vec3> {
  const r = parseColor(value);
  return r.ok ? { ok: true, value: r.rgb, warnings: [] } : { ok: false, error: r.error };
}

export function checkPos(pos: readonly number[], policy: ScenePolicy = TASK_POLICY): Checked<Vec3> {
  const axes = ['x', 'y', 'z'];
  for (let i = 0; i < 3; i++) {
    const v = pos[i];
    if (!Number.isFinite(v)) return { ok: false, error: `position ${axes[i]} is not a finite number` };
    if (policy.bounded && Math.abs(v) > POS_LIMIT) {
      return { ok: false, error: `position [${pos.map((x) => shortNum(x)).join(', ')}] is outside the bounds [-1.25, 1.25] on ${axes[i]}` };
    }
  }
  return { ok: true, value: [pos[0], pos[1], pos[2]], warnings: [] };
}

/** One number (sphere) or three standard deviations, clamped to [SCALE_MIN, SCALE_MAX]. */
export function checkScale(scale: number | readonly number[], policy: ScenePolicy = TASK_POLICY): Checked<Vec3> {
  const s = typeof scale === 'number' ? [scale, scale, scale] : [...scale];
  if (s.length !== 3 || !s.every(Number.isFinite)) return { ok: false, error: 'scale must be finite numbers' };
  if (!policy.bounded) {
    if (s.every((x) => x > 0)) return { ok: true, value: [s[0], s[1], s[2]], warnings: [] };
    return { ok: false, error: `scale [${s.map((x) => shortNum(x, 4)).join(', ')}] must be positive (standard deviations)` };
  }
  const clamped = s.map((x) => Math.min(SCALE_MAX, Math.max(SCALE_MIN, x))) as Vec3;
  const warnings = clamped.some((x, i) => x !== s[i])
    ? [`scale ${typeof scale === 'number' ? shortNum(scale, 4) : `[${s.map((x) => shortNum(x, 4)).join(', ')}]`} clamped to [${clamped.map((x) => shortNum(x, 4)).join(', ')}]`]
    : [];
  return { ok: true, value: clamped, warnings };
}

/** XYZ Euler degrees [3] or quaternion [w, x, y, z] [4] to a unit quaternion. */
export function checkRot(rot: readonly number[]): Checked<Quat> {
  if (!rot.every(Number.isFinite)) return { ok: false, error: 'rot must be finite numbers' };
  if (rot.length === 3) return { ok: true, value: quatNormalize(eulerToQuat([rot[0], rot[1], rot[2]])), warnings: [] };
  const n = Math.hypot(rot[0], rot[1], rot[2], rot[3]);
  if (!(n > 1e-9) || !Number.isFinite(n)) return { ok: false, error: `quaternion ${quoteValue(rot)} has zero length` };
  return { ok: true, value: quatNormalize([rot[0], rot[1], rot[2], rot[3]]), warnings: [] };
}

/**
 * Opacity in [OPACITY_MIN, OPACITY_MAX]. Both ends clamp with a warning (the seed raises low
 * values to the floor; a value above 1 is read as "fully opaque" rather than rejected).
 */
export function checkOpacity(o: number, policy: ScenePolicy = TASK_POLICY): Checked<number> {
  if (!Number.isFinite(o)) return { ok: false, error: 'opacity is not a finite number' };
  if (!policy.bounded && o > 0 && o <= OPACITY_MAX) return { ok: true, value: o, warnings: [] };
  if (!policy.bounded && o <= 0) return { ok: false, error: `opacity ${shortNum(o, 4)} must be above 0` };
  if (o < OPACITY_MIN) return { ok: true, value: OPACITY_MIN, warnings: [`opacity ${shortNum(o, 4)} raised to ${OPACITY_MIN}`] };
  if (o > OPACITY_MAX) return { ok: true, value: OPACITY_MAX, warnings: [`opacity ${shortNum(o, 4)} lowered to ${OPACITY_MAX}`] };
  return { ok: true, value: o, warnings: [] };
}

/** The optional fields of an add/edit item or a loose scene-file entry. */
export interface GaussianFields {
  pos?: readonly number[];
  color?: unknown;
  scale?: number | readonly number[];
  rot?: readonly number[];
  opacity?: number;
}

/**
 * Applies `item`'s fields onto a copy of `base` under `policy`: the record (only meaningful when
 * errors is empty), every field's error and every clamp's warning, in field order.
 */
export function applyGaussianFields(base: GaussianRecord, item: GaussianFields, policy: ScenePolicy = TASK_POLICY): { record: GaussianRecord; errors: string[]; warnings: string[] } {
  const record = fromCompact(toCompact(base));
  const errors: string[] = [];
  const warnings: string[] = [];
  const take = <T>(checked: Checked<T> | undefined, set: (v: T) => void): void => {
    if (!checked) return;
    if (!checked.ok) errors.push(checked.error);
    else {
      set(checked.value);
      warnings.push(...checked.warnings);
    }
  };
  take(item.pos !== undefined ? checkPos(item.pos, policy) : undefined, (v) => (record.pos = v));
  take(item.color !== undefined ? checkColor(item.color) : undefined, (v) => (record.color = v));
  take(item.scale !== undefined ? checkScale(item.scale, policy) : undefined, (v) => (record.scale = v));
  take(item.rot !== undefined ? checkRot(item.rot) : undefined, (v) => (record.quat = v));
  take(item.opacity !== undefined ? checkOpacity(item.opacity, policy) : undefined, (v) => (record.opacity = v));
  return { record, errors, warnings };
}
