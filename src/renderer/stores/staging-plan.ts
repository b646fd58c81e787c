// Commit planning, pure: turns a PendingChange (and the staged operations behind it) into the
// tool call(s) that express it, as a model would write them.
// Inputs: committed scene, PendingChange, staged operations. Output: CommitPlan — one call when
// one tool can express the change, else the separate calls (each charged) in a safe order.
// Invariants: add_gaussians carries only new Gaussians, edit_gaussians only existing ids,
// delete_gaussians ids or one whole group, transform_group one set moved rigidly about its
// centroid; a plan never mixes kinds inside one call.
import { quatMultiply, quatToEuler, type Quat } from '../../shared/math/quaternion';
import { transformRotation } from '../../shared/scene/transform';
import type { Vec3 } from '../../shared/math/vec3';
import { targetIds, type FieldEdit, type GaussianRecord, type PendingChange, type StagedOp, type WorkScene } from './staging-ops';

export interface PlannedCall {
  tool: 'add_gaussians' | 'edit_gaussians' | 'delete_gaussians' | 'transform_group';
  args: Record<string, unknown>;
  summary: string;
}

export interface CommitPlan {
  calls: PlannedCall[];
  /** True when the whole pending change is one tool call. */
  single: boolean;
  /** Why it takes several calls (shown before the person agrees to spend them). */
  reason?: string;
  /** Said plainly when staged transforms are not sent as the transform_group calls they were staged as. */
  merged?: string;
}

/** Rounded as a person would type it (and never -0). */
const round = (x: number, k: number): number => Math.round(x * k) / k + 0;
const r4 = (x: number): number => round(x, 1e4);
const r6 = (x: number): number => round(x, 1e6);
const v4 = (v: readonly number[]): number[] => v.map(r4);
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const isIdentity = (q: readonly number[]): boolean => Math.abs(Math.abs(q[0]) - 1) < 1e-9;

function addItem(r: GaussianRecord): Record<string, unknown> {
  const item: Record<string, unknown> = { pos: v4(r.pos), color: v4(r.color), scale: v4(r.scale) };
  if (!isIdentity(r.quat)) item.rot = r.quat.map(r6);
  if (Math.abs(r.opacity - 1) > 1e-9) item.opacity = r4(r.opacity);
  if (r.group !== undefined) item.group = r.group;
  return item;
}

function editItem(id: number, f: FieldEdit): Record<string, unknown> {
  const item: Record<string, unknown> = { id };
  if (f.pos) item.pos = v4(f.pos);
  if (f.scale) item.scale = v4(f.scale);
  if (f.quat) item.rot = f.quat.map(r6);
  if (f.color) item.color = v4(f.color);
  if (f.opacity !== undefined) item.opacity = r4(f.opacity);
  if (f.group !== undefined) item.group = f.group;
  return item;
}

/** `{group}` when the ids are exactly one whole group of the committed scene, else `{ids}`. */
function deleteArgs(base: readonly GaussianRecord[], ids: number[]): Record<string, unknown> {
  const set = new Set(ids);
  const groups = new Set(base.filter((r) => set.has(r.id)).map((r) => r.group));
  if (groups.size === 1) {
    const [g] = groups;
    if (g !== undefined && base.filter((r) => r.group === g).length === ids.length) return { group: g };
  }
  return { ids: [...ids].sort((a, b) => a - b) };
}

/**
 * One transform_group equivalent to a run of transform ops on the same set, or null.
 * x -> c + R_n s_n ... R_1 K_1 (x - c) + sum t: a per-axis scale is allowed only in the first
 * op (uniform scales commute with rotations; per-axis ones do not).
 */
export function composeTransforms(ops: readonly StagedOp[]): { ids: number[]; group?: string; args: Record<string, unknown> } | null {
  if (ops.length === 0 || ops.some((o) => o.kind !== 'transform')) return null;
  const ts = ops as Extract<StagedOp, { kind: 'transform' }>[];
  const key = (o: (typeof ts)[number]): string => `${o.group ?? ''}|${[...o.ids].sort((a, b) => a - b).join(',')}`;
  if (ts.some((o) => key(o) !== key(ts[0]))) return null;
  let k: Vec3 = [1, 1, 1];
  let q: Quat = [1, 0, 0, 0];
  const t: Vec3 = [0, 0, 0];
  let aboutZ: number | null = 0;
  for (const [i, o] of ts.entries()) {
    const s = o.spec.scale;
    if (Array.isArray(s) && i > 0 && !(s[0] === s[1] && s[1] === s[2])) return null;
    const sv: Vec3 = s === undefined ? [1, 1, 1] : typeof s === 'number' ? [s, s, s] : [s[0], s[1], s[2]];
    k = [k[0] * sv[0], k[1] * sv[1], k[2] * sv[2]];
    q = quatMultiply(transformRotation(o.spec.rotateDeg), q);
    const rd = o.spec.rotateDeg;
    aboutZ = aboutZ !== null && (rd === undefined || typeof rd === 'number') ? aboutZ + (rd ?? 0) : null;
    const tr = o.spec.translate ?? [0, 0, 0];
    for (let a = 0; a < 3; a++) t[a] += tr[a];
  }
  const args: Record<string, unknown> = {};
  const first = ts[0];
  if (first.group !== undefined && first.ids.length === 0) args.group = first.group;
  else args.ids = [...first.ids].sort((a, b) => a - b);
  if (t.some((x) => Math.abs(x) > 1e-9)) args.translate = v4(t);
  if (aboutZ !== null) {
    if (Math.abs(aboutZ) > 1e-9) args.rotate_deg = r4(aboutZ);
  } else if (!isIdentity(q)) args.rotate_deg = quatToEuler(q).map(r4);
  if (k.some((x) => Math.abs(x - 1) > 1e-9)) args.scale = k[0] === k[1] && k[1] === k[2] ? r4(k[0]) : v4(k);
  if (Object.keys(args).length === 1) return null;
  return { ids: first.ids, ...(first.group !== undefined ? { group: first.group } : {}), args };
}

/** Why staged transforms go out inside one edit_gaussians (null when none were staged). */
function mergedNote(ops: readonly StagedOp[], change: PendingChange): string | undefined {
  const n = ops.filter((o) => o.kind === 'transform').length;
  if (n === 0) return undefined;
  const rotated = change.edits.filter((e) => e.fields.quat).length;
  const why = change.adds.length || change.deletes.length || ops.some((o) => o.kind !== 'transform')
    ? 'they are mixed with other edits of existing Gaussians'
    : 'they move different sets (or compose to no single transform)';
  return `Merged: ${plural(n, 'staged transform')} ${n === 1 ? 'goes' : 'go'} out as part of one edit_gaussians with the new absolute values, because ${why}; ` +
    `sending each as its own transform_group would cost ${plural(n, 'call')}. The resulting scene is the same. ` +
    `Rotation (rot) is written for ${plural(rotated, 'Gaussian')} that turned, none for those only moved.`;
}

function transformSummary(args: Record<string, unknown>): string {
  const target = args.group !== undefined ? `group '${String(args.group)}'` : plural((args.ids as number[]).length, 'Gaussian');
  const parts = ['translate', 'rotate_deg', 'scale'].filter((p) => args[p] !== undefined).map((p) => `${p} ${JSON.stringify(args[p])}`);
  return `Transform ${target}: ${parts.join(', ')}`;
}

/** The call(s) that commit the pending change. */
export function planCommit(base: WorkScene, change: PendingChange, ops: readonly StagedOp[]): CommitPlan {
  const calls: PlannedCall[] = [];
  let merged: string | undefined;
  if (change.deletes.length) {
    const args = deleteArgs(base.records, change.deletes);
    calls.push({ tool: 'delete_gaussians', args, summary: args.group !== undefined ? `Delete group '${String(args.group)}'` : `Delete ${plural(change.deletes.length, 'Gaussian')}` });
  }
  if (change.edits.length) {
    const composed = change.adds.length === 0 && change.deletes.length === 0 ? composeTransforms(ops) : null;
    const movedIds = composed ? targetIds(base.records, composed.ids, composed.group) : [];
    const editedIds = change.edits.map((e) => e.id);
    const exact = composed !== null && movedIds.length === editedIds.length && editedIds.every((id) => movedIds.includes(id));
    if (composed && exact) calls.push({ tool: 'transform_group', args: composed.args, summary: transformSummary(composed.args) });
    else {
      calls.push({ tool: 'edit_gaussians', args: { gaussians: change.edits.map((e) => editItem(e.id, e.fields)) }, summary: `Edit ${plural(change.edits.length, 'Gaussian')}` });
      merged = mergedNote(ops, change);
    }
  }
  if (change.adds.length) calls.push({ tool: 'add_gaussians', args: { gaussians: change.adds.map(addItem) }, summary: `Add ${plural(change.adds.length, 'Gaussian')}` });
  if (calls.length <= 1) return { calls, single: true, ...(merged ? { merged } : {}) };
  const tools = calls.map((c) => c.tool);
  const list = `${tools.slice(0, -1).join(', ')} and ${tools[tools.length - 1]}`;
  return {
    calls,
    single: false,
    ...(merged ? { merged } : {}),
    reason: `No single tool can express this change: it needs ${list}. Commit it as ${calls.length} separate calls (each charged), or undo part of it and commit in steps.`,
  };
}
