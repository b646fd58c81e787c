// Staged edits, pure: the person's pending operations applied to a working copy of the scene,
// and the diff between the committed scene and that copy. No Vue, no three.js.
// Inputs: the committed scene (records + next id) and staged operations (add, edit, delete,
// rigid transform). Output: the working scene and the PendingChange (adds, field edits, deletes).
// Invariants: operations never validate (the episode does, on commit, as it would for a model);
// a Gaussian added here gets the id the episode will assign (ids in order from nextId);
// transforms use the episode's own transformRecords, so the preview moves exactly as the call will.
import type { GaussianRecord } from '../../shared/scene/gaussian';
import type { Quat } from '../../shared/math/quaternion';
import type { Vec3 } from '../../shared/math/vec3';
import { transformRecords, type TransformSpec } from '../../shared/scene/transform';

export type { GaussianRecord, TransformSpec };

/** A Gaussian without an id (what an add stages). */
export type NewRecord = Omit<GaussianRecord, 'id'>;

/** Field changes of one Gaussian; group null removes the label. */
export interface FieldEdit {
  pos?: Vec3;
  scale?: Vec3;
  quat?: Quat;
  color?: Vec3;
  opacity?: number;
  group?: string | null;
}

export type StagedOp =
  | { kind: 'add'; label: string; items: NewRecord[] }
  | { kind: 'edit'; label: string; edits: { id: number; fields: FieldEdit }[] }
  | { kind: 'delete'; label: string; ids: number[]; group?: string }
  | { kind: 'transform'; label: string; ids: number[]; group?: string; spec: TransformSpec };

export interface WorkScene {
  records: GaussianRecord[];
  nextId: number;
}

export interface PendingChange {
  adds: GaussianRecord[];
  edits: { id: number; fields: FieldEdit }[];
  deletes: number[];
}

export function cloneRecord(r: GaussianRecord): GaussianRecord {
  const c: GaussianRecord = { id: r.id, pos: [...r.pos], scale: [...r.scale], quat: [...r.quat], color: [...r.color], opacity: r.opacity };
  if (r.group !== undefined) c.group = r.group;
  return c;
}

function withFields(r: GaussianRecord, f: FieldEdit): GaussianRecord {
  const out = cloneRecord(r);
  if (f.pos) out.pos = [...f.pos];
  if (f.scale) out.scale = [...f.scale];
  if (f.quat) out.quat = [...f.quat];
  if (f.color) out.color = [...f.color];
  if (f.opacity !== undefined) out.opacity = f.opacity;
  if (f.group === null) delete out.group;
  else if (f.group !== undefined) out.group = f.group;
  return out;
}

/** The working scene after one more operation (ids of unknown Gaussians are ignored). */
export function applyOp(scene: WorkScene, op: StagedOp): WorkScene {
  switch (op.kind) {
    case 'add': {
      const added = op.items.map((item, i) => cloneRecord({ ...item, id: scene.nextId + i }));
      return { records: [...scene.records.map(cloneRecord), ...added], nextId: scene.nextId + added.length };
    }
    case 'edit': {
      const byId = new Map(op.edits.map((e) => [e.id, e.fields]));
      return { records: scene.records.map((r) => (byId.has(r.id) ? withFields(r, byId.get(r.id) as FieldEdit) : cloneRecord(r))), nextId: scene.nextId };
    }
    case 'delete': {
      const gone = new Set(op.ids);
      return { records: scene.records.filter((r) => !gone.has(r.id) && !(op.group !== undefined && r.group === op.group)).map(cloneRecord), nextId: scene.nextId };
    }
    case 'transform': {
      const chosen = new Set(targetIds(scene.records, op.ids, op.group));
      const moved = transformRecords(scene.records.filter((r) => chosen.has(r.id)), op.spec).records;
      const byId = new Map(moved.map((r) => [r.id, r]));
      return { records: scene.records.map((r) => cloneRecord(byId.get(r.id) ?? r)), nextId: scene.nextId };
    }
  }
}

/** Ids an operation aims at: the listed ids plus every member of the group. */
export function targetIds(records: readonly GaussianRecord[], ids: readonly number[], group?: string): number[] {
  const out = new Set(ids);
  if (group !== undefined) for (const r of records) if (r.group === group) out.add(r.id);
  return records.filter((r) => out.has(r.id)).map((r) => r.id);
}

export function applyOps(base: WorkScene, ops: readonly StagedOp[]): WorkScene {
  return ops.reduce(applyOp, { records: base.records.map(cloneRecord), nextId: base.nextId });
}

/**
 * Whether two quaternions are the same rotation: compared after normalising (a transform
 * renormalises the rounded quaternion a scene holds, which turns no Gaussian) and up to sign.
 */
export function sameRotation(a: readonly number[], b: readonly number[], eps = 1e-9): boolean {
  const na = Math.hypot(...a) || 1;
  const nb = Math.hypot(...b) || 1;
  const sign = a.reduce((acc, x, i) => acc + x * b[i], 0) < 0 ? -1 : 1;
  return a.length === b.length && a.every((x, i) => Math.abs(x / na - (sign * b[i]) / nb) <= eps);
}

/** Changed fields of `after` relative to `before` (empty when equal within eps; a rotation compares as a rotation). */
export function fieldDiff(before: GaussianRecord, after: GaussianRecord, eps = 1e-9): FieldEdit {
  const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]) <= eps);
  const f: FieldEdit = {};
  if (!same(before.pos, after.pos)) f.pos = [...after.pos];
  if (!same(before.scale, after.scale)) f.scale = [...after.scale];
  if (!sameRotation(before.quat, after.quat, eps)) f.quat = [...after.quat];
  if (!same(before.color, after.color)) f.color = [...after.color];
  if (Math.abs(before.opacity - after.opacity) > eps) f.opacity = after.opacity;
  if (before.group !== after.group) f.group = after.group ?? null;
  return f;
}

/** What differs between the committed scene and the working one. */
export function pendingChange(base: WorkScene, work: WorkScene, eps = 1e-9): PendingChange {
  const baseById = new Map(base.records.map((r) => [r.id, r]));
  const workIds = new Set(work.records.map((r) => r.id));
  const adds: GaussianRecord[] = [];
  const edits: { id: number; fields: FieldEdit }[] = [];
  for (const r of work.records) {
    const before = baseById.get(r.id);
    if (!before) {
      adds.push(cloneRecord(r));
      continue;
    }
    const fields = fieldDiff(before, r, eps);
    if (Object.keys(fields).length) edits.push({ id: r.id, fields });
  }
  const deletes = base.records.filter((r) => !workIds.has(r.id)).map((r) => r.id);
  return { adds, edits, deletes };
}

export function isEmptyChange(c: PendingChange): boolean {
  return c.adds.length === 0 && c.edits.length === 0 && c.deletes.length === 0;
}

/** Operations that rebuild `change` on top of a new committed scene (absolute values: idempotent). */
export function opsFromChange(change: PendingChange): StagedOp[] {
  const ops: StagedOp[] = [];
  if (change.deletes.length) ops.push({ kind: 'delete', label: `Delete ${change.deletes.length}`, ids: [...change.deletes] });
  if (change.edits.length) ops.push({ kind: 'edit', label: `Edit ${change.edits.length}`, edits: change.edits.map((e) => ({ id: e.id, fields: { ...e.fields } })) });
  if (change.adds.length) {
    const items = change.adds.map((r) => {
      const { id: _id, ...rest } = cloneRecord(r);
      return rest;
    });
    ops.push({ kind: 'add', label: `Add ${items.length}`, items });
  }
  return ops;
}
