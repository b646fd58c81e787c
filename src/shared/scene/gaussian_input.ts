// Parsing of loose Gaussian input (tool arguments, render CLI scene files) into GaussianRecords.
// Inputs: JSON-like values: {pos, scale?: number | [3], rot?: [3] Euler deg | [4] quaternion,
// color, opacity?, group?} or the compact {id?, p, s, q, c, o, g?}; scene files are
// {"gaussians": [...]}. Output: records or errors naming the item index (`#3: ...`).
// Invariant: a returned record has finite fields, positive scales, a unit quaternion (inputs
// within 1e-3 of unit length are normalised, others rejected) and a valid colour. Bounds,
// scale and opacity clamping are the episode's policy (src/shared/env), not applied here.
import { z } from 'zod';
import { eulerToQuat, quatNorm, type Quat } from '../math/quaternion';
import type { Vec3 } from '../math/vec3';
import { parseColor, type GaussianRecord } from './gaussian';

/** Scale used when a loose item gives none (standard deviation). */
export const DEFAULT_SCALE = 0.05;
export const DEFAULT_OPACITY = 1;
/** Largest | |q| - 1 | accepted for an input quaternion; it is then normalised. */
export const QUAT_UNIT_TOLERANCE = 1e-3;

const finite = z.number({ error: 'must be a finite number' });
const vec3 = z.tuple([finite, finite, finite]);
const vec4 = z.tuple([finite, finite, finite, finite]);

export const GaussianInputSchema = z.object({
  pos: vec3,
  scale: z.union([finite, vec3]).optional(),
  rot: z.union([vec3, vec4]).optional(),
  color: z.union([z.string(), vec3]),
  opacity: finite.optional(),
  group: z.string().min(1).optional(),
});
export type GaussianInput = z.infer<typeof GaussianInputSchema>;

export const CompactGaussianSchema = z.object({
  id: z.number().int().nonnegative().optional(),
  p: vec3,
  s: vec3,
  q: vec4,
  c: vec3,
  o: finite,
  g: z.string().min(1).optional(),
});

export const SceneFileSchema = z.object({ gaussians: z.array(z.unknown()) });

export type RecordResult = { ok: true; record: GaussianRecord } | { ok: false; error: string };

function fail(index: number, message: string): RecordResult {
  return { ok: false, error: `#${index}: ${message}` };
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '')} ${i.message}` : i.message))
    .join('; ');
}

/** Unit quaternion of an Euler [3] (degrees) or quaternion [4] input, or why it is rejected. */
export function rotationFromInput(rot: readonly number[]): { ok: true; quat: Quat } | { ok: false; error: string } {
  if (rot.length === 3) return { ok: true, quat: eulerToQuat([rot[0], rot[1], rot[2]]) };
  const q: Quat = [rot[0], rot[1], rot[2], rot[3]];
  const n = quatNorm(q);
  if (!(Math.abs(n - 1) <= QUAT_UNIT_TOLERANCE)) {
    return { ok: false, error: `quaternion [${rot.join(', ')}] has length ${n.toPrecision(6)}, not 1 (give a unit [w, x, y, z] or Euler degrees [x, y, z])` };
  }
  return { ok: true, quat: [q[0] / n, q[1] / n, q[2] / n, q[3] / n] };
}

function checkScales(s: Vec3): string | null {
  return s.every((v) => v > 0) ? null : `scale [${s.join(', ')}] must be positive (standard deviations)`;
}

/** Parses one loose input item; `index` names it in errors, `id` is assigned to the record. */
export function parseGaussianInput(value: unknown, index: number, id: number): RecordResult {
  const parsed = GaussianInputSchema.safeParse(value);
  if (!parsed.success) return fail(index, issuesText(parsed.error));
  const g = parsed.data;
  const color = parseColor(g.color);
  if (!color.ok) return fail(index, color.error);
  const scaleIn = g.scale ?? DEFAULT_SCALE;
  const scale: Vec3 = typeof scaleIn === 'number' ? [scaleIn, scaleIn, scaleIn] : [...scaleIn];
  const scaleError = checkScales(scale);
  if (scaleError) return fail(index, scaleError);
  const rot = rotationFromInput(g.rot ?? [1, 0, 0, 0]);
  if (!rot.ok) return fail(index, rot.error);
  const record: GaussianRecord = { id, pos: [...g.pos], scale, quat: rot.quat, color: color.rgb, opacity: g.opacity ?? DEFAULT_OPACITY };
  if (g.group !== undefined) record.group = g.group;
  return { ok: true, record };
}

/** Parses one compact item {id?, p, s, q, c, o, g?}; its own id wins over `fallbackId`. */
export function parseCompactInput(value: unknown, index: number, fallbackId: number): RecordResult {
  const parsed = CompactGaussianSchema.safeParse(value);
  if (!parsed.success) return fail(index, issuesText(parsed.error));
  const c = parsed.data;
  const color = parseColor(c.c);
  if (!color.ok) return fail(index, color.error);
  const scaleError = checkScales(c.s);
  if (scaleError) return fail(index, scaleError);
  const rot = rotationFromInput(c.q);
  if (!rot.ok) return fail(index, rot.error);
  const record: GaussianRecord = { id: c.id ?? fallbackId, pos: [...c.p], scale: [...c.s], quat: rot.quat, color: color.rgb, opacity: c.o };
  if (c.g !== undefined) record.group = c.g;
  return { ok: true, record };
}

function looksCompact(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'p' in value;
}

/**
 * A scene document {"gaussians": [...]} whose items are loose or compact; ids default to the
 * item index. Returns every bad item's error, so a file can be fixed in one pass.
 */
export function parseSceneDocument(json: unknown): { ok: true; records: GaussianRecord[] } | { ok: false; errors: string[] } {
  const doc = SceneFileSchema.safeParse(json);
  if (!doc.success) return { ok: false, errors: ['a scene file is {"gaussians": [...]}'] };
  const records: GaussianRecord[] = [];
  const errors: string[] = [];
  doc.data.gaussians.forEach((item, i) => {
    const r = looksCompact(item) ? parseCompactInput(item, i, i) : parseGaussianInput(item, i, i);
    if (r.ok) records.push(r.record);
    else errors.push(r.error);
  });
  return errors.length ? { ok: false, errors } : { ok: true, records };
}
