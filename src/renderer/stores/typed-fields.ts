// Typed values, pure: the one path from a value typed into the inspector or the Transform panel
// to a staged edit (docs/DESIGN.md section 7; issue 42). Inputs: the typed text or number, the
// record(s) it applies to, the Transform form of one target. Outputs: the field edit (or a
// refusal saying why), the per-Gaussian σ edits of "each σ ×", and the Transform form's next
// state with the spec one Stage sends. Invariants: a value shown in a field is either staged
// as shown or still pending in its field (a centre-at never clears the form); one Stage
// (Enter or the button) sends the form once and empties it, so a second press sends nothing.
import { eulerToQuat } from '../../shared/math/quaternion';
import { OPACITY_MAX, OPACITY_MIN, POS_LIMIT, SCALE_MAX, SCALE_MIN } from '../../shared/scene/policy';
import type { Vec3 } from '../../shared/math/vec3';
import type { TransformSpec } from '../../shared/scene/transform';
import type { FieldEdit, GaussianRecord } from './staging-ops';

export const SNAP_DEG = 15;
const round = (x: number, d = 4): number => Math.round(x * 10 ** d) / 10 ** d + 0;

export type Typed<T> = { ok: T } | { refused: string };

/** A typed field's number, or why it is not one. */
export function parseTyped(text: string): Typed<number> {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) return { refused: `'${text}' is not a number` };
  return { ok: v };
}

export type InspectorField = 'pos' | 'scale' | 'rot' | 'opacity';

/**
 * The edit one typed value of one Gaussian's field makes (rotation axes are XYZ Euler degrees,
 * `euler` the record's current angles as shown; the uniform lock scales all three σ).
 */
export function inspectorEdit(r: GaussianRecord, euler: Vec3, field: InspectorField, axis: number, text: string, uniform: boolean): Typed<FieldEdit> {
  const t = parseTyped(text);
  if ('refused' in t) return t;
  const v = t.ok;
  if (field === 'rot') {
    const next = [...euler] as Vec3;
    next[axis] = v;
    return { ok: { quat: eulerToQuat(next) } };
  }
  if (field === 'opacity') return v < OPACITY_MIN || v > OPACITY_MAX ? { refused: `opacity ${v} is outside [${OPACITY_MIN}, ${OPACITY_MAX}]` } : { ok: { opacity: v } };
  if (field === 'pos') {
    if (v < -POS_LIMIT || v > POS_LIMIT) return { refused: `position ${'xyz'[axis]} ${v} is outside [-${POS_LIMIT}, ${POS_LIMIT}]` };
    const pos = [...r.pos] as Vec3;
    pos[axis] = v;
    return { ok: { pos } };
  }
  if (v < SCALE_MIN || v > SCALE_MAX) return { refused: `scale σ ${'xyz'[axis]} ${v} is outside [${SCALE_MIN}, ${SCALE_MAX}]` };
  if (!uniform) {
    const scale = [...r.scale] as Vec3;
    scale[axis] = v;
    return { ok: { scale } };
  }
  const k = v / r.scale[axis];
  const scale = r.scale.map((s, i) => (i === axis ? v : s * k)) as Vec3;
  if (scale.some((s) => s < SCALE_MIN || s > SCALE_MAX)) return { refused: `with the uniform lock that makes scale σ [${scale.map((s) => round(s)).join(', ')}], outside [${SCALE_MIN}, ${SCALE_MAX}]` };
  return { ok: { scale } };
}

/** "each σ ×": every record's own σ times k (positions stay), or why not. */
export function scaleEachEdits(recs: readonly GaussianRecord[], k: number): Typed<{ id: number; fields: FieldEdit }[]> {
  const out = recs.map((r) => r.scale.map((s) => s * k) as Vec3);
  if (!(k > 0) || out.some((s) => s.some((x) => x < SCALE_MIN || x > SCALE_MAX))) return { refused: `σ × ${k} takes some Gaussians outside [${SCALE_MIN}, ${SCALE_MAX}]` };
  return { ok: recs.map((r, i) => ({ id: r.id, fields: { scale: out[i] } })) };
}

/** The Transform panel's typed, not yet staged values for one target (a group or a set). */
export interface TransformForm {
  move: Vec3;
  turn: Vec3;
  factor: number;
  snap: boolean;
  /** Why a typed angle changed in its field (null when it was taken as typed). */
  note: string | null;
}

export const emptyForm = (snap = true): TransformForm => ({ move: [0, 0, 0], turn: [0, 0, 0], factor: 1, snap, note: null });

const num = (x: unknown, fallback: number): number => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
export const snapDeg = (d: number, on: boolean): number => (on ? Math.round(d / SNAP_DEG) * SNAP_DEG + 0 : d);

/** A typed angle settled (its field's change): snapped in the form itself, with the note why. */
export function settleAngle(form: TransformForm, axis: number): TransformForm {
  const v = num(form.turn[axis], 0);
  const s = snapDeg(v, form.snap);
  const turn = [...form.turn] as Vec3;
  turn[axis] = s;
  return { ...form, turn, note: s !== v ? `${v}° about ${'XYZ'[axis]} snapped to ${s}° (untick "snap 15°" to send ${v}°).` : null };
}

/** The snap ticked or unticked: turning it on snaps the angles already typed, in their fields. */
export function setSnap(form: TransformForm, on: boolean): TransformForm {
  if (!on) return { ...form, snap: false, note: null };
  const turn = form.turn.map((x) => snapDeg(num(x, 0), true)) as Vec3;
  const changed = turn.some((x, i) => x !== num(form.turn[i], 0));
  return { ...form, snap: true, turn, note: changed ? `Angles snapped to 15° steps: [${turn.join(', ')}].` : null };
}

/** What one Stage sends for the form as shown (empty: nothing to stage). */
export function formSpec(form: TransformForm): TransformSpec {
  const s: TransformSpec = {};
  const move = form.move.map((x) => num(x, 0)) as Vec3;
  if (move.some((x) => x !== 0)) s.translate = move;
  const r = form.turn.map((x) => snapDeg(num(x, 0), form.snap)) as Vec3;
  if (r.some((x) => x !== 0)) s.rotateDeg = r[0] === 0 && r[1] === 0 ? r[2] : r;
  const f = num(form.factor, 1);
  if (f !== 1 && f > 0) s.scale = f;
  return s;
}

export const formBadFactor = (form: TransformForm): boolean => !(num(form.factor, 0) > 0);

/** One line saying what is typed and not staged yet (null when nothing is). */
export function pendingText(form: TransformForm): string | null {
  const s = formSpec(form);
  const parts: string[] = [];
  if (s.translate) parts.push(`translate [${s.translate.join(', ')}]`);
  if (s.rotateDeg !== undefined) parts.push(`rotate ${JSON.stringify(s.rotateDeg)}°`);
  if (s.scale !== undefined) parts.push(`scale ${String(s.scale)}`);
  return parts.length ? parts.join(', ') : null;
}

/** Stage (Enter in a field or the button): the spec to stage once and the emptied form (snap kept). */
export function stageForm(form: TransformForm): { spec: TransformSpec | null; form: TransformForm } {
  if (formBadFactor(form)) return { spec: null, form };
  const spec = formSpec(form);
  if (Object.keys(spec).length === 0) return { spec: null, form };
  return { spec, form: emptyForm(form.snap) };
}

/** A typed target centre coordinate: the translation that takes the centroid there (the form is untouched). */
export function centreMove(typed: number, at: number, axis: number): TransformSpec | null {
  const t: Vec3 = [0, 0, 0];
  t[axis] = typed - at;
  return Math.abs(t[axis]) < 1e-9 ? null : { translate: t };
}
