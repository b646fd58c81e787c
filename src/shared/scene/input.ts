// The input forms of a Gaussian and the one parser of scene documents (docs/DESIGN.md section 2):
// the loose tool form {pos, color, scale?, rot?, opacity?, group?} (the same zod schemas the
// add_gaussians tool validates with) and the compact trajectory form {id?, p, s, q, c, o, g?}.
// Every reader of scenes (task fits, `grade`, `render`, the debugger, imports) goes through
// parseSceneDocument, so a scene the environment would refuse is refused everywhere, and one it
// would clamp is clamped with the same warnings.
// Inputs: parsed JSON and a ScenePolicy (TASK_POLICY unless a tool deliberately goes beyond the
// task bounds). Outputs: records with ids (the item's own compact id, else its index) and
// warnings, or every bad item's error (`#3: ...`). Invariant: records satisfy the policy.
import { z } from 'zod';
import type { GaussianRecord } from './gaussian';
import { applyGaussianFields, TASK_POLICY, type ScenePolicy } from './policy';

/** Scale of a Gaussian given without one (a sphere of this standard deviation). */
export const DEFAULT_SCALE = 0.05;
export const DEFAULT_OPACITY = 1;

const num = z.number();
const vec3 = z.tuple([num, num, num]);

export const ColorSchema = z.union([z.string(), z.tuple([num, num, num])]).describe(
  "Colour as '#rrggbb' or [r, g, b] with each component in [0, 1].",
);
export const PosSchema = vec3.describe('Centre [x, y, z]; each coordinate must lie in [-1.25, 1.25] (the bounds cube is [-1, 1]^3, Z up).');
export const ScaleSchema = z.union([num, z.tuple([num, num, num])]).describe(
  'Standard deviations along the Gaussian\'s own axes: one number for a sphere or [sx, sy, sz]; clamped to [0.005, 0.5] with a warning. A Gaussian stays visible to about 2-3 standard deviations.',
);
export const RotSchema = z.union([z.tuple([num, num, num]), z.tuple([num, num, num, num])]).describe(
  'Rotation: XYZ Euler angles in degrees [rx, ry, rz] (R = Rz * Ry * Rx) or a quaternion [w, x, y, z] (normalised). Default: no rotation.',
);
export const OpacitySchema = num.describe('Opacity in [0.05, 1]: values below 0.05 are raised to 0.05 and values above 1 lowered to 1, each with a warning. Default 1.');
export const GroupSchema = z.string().min(1).max(64).describe('Optional group label (1-64 characters), used by delete_gaussians, transform_group, list_gaussians and the render tools.');

/** The loose form: what add_gaussians takes and what hand-written scene files hold. */
export const NewGaussianSchema = z.strictObject({
  pos: PosSchema,
  color: ColorSchema,
  scale: ScaleSchema.optional(),
  rot: RotSchema.optional(),
  opacity: OpacitySchema.optional(),
  group: GroupSchema.optional(),
});
export type NewGaussian = z.output<typeof NewGaussianSchema>;

const finite = z.number({ error: 'must be a finite number' });

/** The compact form of trajectories and fit.json: full precision, id optional in files. */
export const CompactGaussianSchema = z.object({
  id: z.number().int().nonnegative().optional(),
  p: z.tuple([finite, finite, finite]),
  s: z.tuple([finite, finite, finite]),
  q: z.tuple([finite, finite, finite, finite]),
  c: z.tuple([finite, finite, finite]),
  o: finite,
  g: z.string().min(1).optional(),
});

export const SceneDocumentSchema = z.object({ gaussians: z.array(z.unknown()) });

export type SceneParse = { ok: true; records: GaussianRecord[]; warnings: string[] } | { ok: false; errors: string[] };

function issuesText(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '')} ${i.message}` : i.message))
    .join('; ');
}

const BASE: Omit<GaussianRecord, 'id'> = { pos: [0, 0, 0], scale: [DEFAULT_SCALE, DEFAULT_SCALE, DEFAULT_SCALE], quat: [1, 0, 0, 0], color: [0, 0, 0], opacity: DEFAULT_OPACITY };

function looksCompact(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'p' in value;
}

/** One item of either form; `index` names it in messages and is its id unless it has its own. */
export function parseSceneItem(value: unknown, index: number, policy: ScenePolicy = TASK_POLICY): { ok: true; record: GaussianRecord; warnings: string[] } | { ok: false; error: string } {
  const label = `#${index}`;
  let fields: Parameters<typeof applyGaussianFields>[1];
  let id = index;
  let group: string | undefined;
  if (looksCompact(value)) {
    const c = CompactGaussianSchema.safeParse(value);
    if (!c.success) return { ok: false, error: `${label}: expected {p, s, q, c, o} with an optional id and g (${issuesText(c.error)})` };
    fields = { pos: c.data.p, scale: c.data.s, rot: c.data.q, color: c.data.c, opacity: c.data.o };
    id = c.data.id ?? index;
    group = c.data.g;
  } else {
    const loose = NewGaussianSchema.safeParse(value);
    if (!loose.success) return { ok: false, error: `${label}: ${issuesText(loose.error)} (expected {pos, color, scale?, rot?, opacity?, group?} or {p, s, q, c, o, g?})` };
    fields = loose.data;
    group = loose.data.group;
  }
  const r = applyGaussianFields({ id, ...BASE }, fields, policy);
  if (r.errors.length) return { ok: false, error: `${label}: ${r.errors[0]}` };
  if (group !== undefined) r.record.group = group;
  return { ok: true, record: r.record, warnings: r.warnings.map((w) => `${label}: ${w}`) };
}

/** A scene document {"gaussians": [...]}; every bad item's error, so a file is fixed in one pass. */
export function parseSceneDocument(json: unknown, policy: ScenePolicy = TASK_POLICY): SceneParse {
  const doc = SceneDocumentSchema.safeParse(json);
  if (!doc.success) return { ok: false, errors: ['a scene file is {"gaussians": [...]}'] };
  const records: GaussianRecord[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  doc.data.gaussians.forEach((item, i) => {
    const r = parseSceneItem(item, i, policy);
    if (r.ok) {
      records.push(r.record);
      warnings.push(...r.warnings);
    } else errors.push(r.error);
  });
  const ids = new Set<number>();
  for (const r of records) {
    if (ids.has(r.id)) errors.push(`id ${r.id} appears twice`);
    ids.add(r.id);
  }
  return errors.length ? { ok: false, errors } : { ok: true, records, warnings };
}

export class SceneFileError extends Error {
  override name = 'SceneFileError';
}

/** parseSceneDocument for files that must be valid: throws SceneFileError with the first error. */
export function parseSceneFile(json: unknown, policy: ScenePolicy = TASK_POLICY): GaussianRecord[] {
  const r = parseSceneDocument(json, policy);
  if (!r.ok) throw new SceneFileError(r.errors[0].replace(/^#(\d+): /, 'gaussian #$1: '));
  return r.records;
}

/** Serialises records in the compact form fit.json uses (ids dropped: order is identity). */
export function sceneFileJson(records: readonly GaussianRecord[]): { gaussians: object[] } {
  return {
    gaussians: records.map((r) => ({
      p: [...r.pos],
      s: [...r.scale],
      q: [...r.quat],
      c: [...r.color],
      o: r.opacity,
      ...(r.group !== undefined ? { g: r.group } : {}),
    })),
  };
}
