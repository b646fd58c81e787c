// The four scene-changing tools (add, edit, delete, transform) as pure functions.
// Inputs: the current records and next id, zod-parsed arguments, the Gaussian budget.
// Output: either new records (inputs never mutated) with a result text, or an error text.
// Invariant: atomic: one invalid item rejects the whole call and the caller keeps its scene.
import type { Vec3 } from '../../math/vec3';
import { DEFAULT_SCALE } from '../../scene/input';
import { applyGaussianFields, POS_LIMIT } from '../../scene/policy';
import { errorText } from '../../env/outcome';
import type { ToolArgs } from './tools';
import { pyVec, shortNum } from '../../math/format';
import { groupNames, type GaussianRecord } from '../../scene/records';
import { transformRecords } from '../../scene/transform';

export type EditOutcome =
  | { ok: true; records: GaussianRecord[]; nextId: number; text: string }
  | { ok: false; error: string };

const MAX_LISTED = 5;

/** `a; b; c (and 4 more)` */
export function listReasons(items: readonly string[], max = MAX_LISTED): string {
  const more = items.length - max;
  return items.slice(0, max).join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

/** Warning text -> item labels it applies to, so a batch with one repeated clamp reads once. */
type Warnings = Map<string, string[]>;

function warn(warnings: Warnings, label: string, text: string): void {
  const labels = warnings.get(text);
  if (labels) labels.push(label);
  else warnings.set(text, [label]);
}

function warningsLine(warnings: Warnings): string {
  if (!warnings.size) return '';
  const lines = [...warnings].map(([text, labels]) => {
    const shown = labels.slice(0, 4).join(', ') + (labels.length > 4 ? ` and ${labels.length - 4} more` : '');
    return `${shown}: ${text}`;
  });
  return `\nWarnings: ${listReasons(lines)}.`;
}

function fail(verb: string, reasons: readonly string[]): EditOutcome {
  return { ok: false, error: errorText(`nothing was ${verb}. ${listReasons(reasons)}`) };
}

/** Applies an item's fields with the scene policy, collecting errors and grouped warnings. */
function applyFields(base: GaussianRecord, item: Parameters<typeof applyGaussianFields>[1], label: string, errors: string[], warnings: Warnings): GaussianRecord {
  const r = applyGaussianFields(base, item);
  for (const e of r.errors) errors.push(`${label}: ${e}`);
  for (const w of r.warnings) warn(warnings, label, w);
  return r.record;
}

function idRange(first: number, count: number): string {
  return count === 1 ? `id ${first}` : `ids ${first}-${first + count - 1}`;
}

export function addGaussians(records: readonly GaussianRecord[], nextId: number, maxGaussians: number, args: ToolArgs<'add_gaussians'>): EditOutcome {
  const items = args.gaussians;
  const errors: string[] = [];
  const warnings: Warnings = new Map();
  const added = items.map((item, i) => {
    const base: GaussianRecord = { id: nextId + i, pos: [0, 0, 0], scale: [DEFAULT_SCALE, DEFAULT_SCALE, DEFAULT_SCALE], quat: [1, 0, 0, 0], color: [0, 0, 0], opacity: 1 };
    const rec = applyFields(base, item, `#${i}`, errors, warnings);
    if (item.group !== undefined) rec.group = item.group;
    return rec;
  });
  if (errors.length) return fail('added', errors);
  const total = records.length + items.length;
  if (total > maxGaussians) {
    return fail('added', [`adding ${items.length} Gaussians would make ${total}, over the budget of ${maxGaussians} (room for ${maxGaussians - records.length})`]);
  }
  const text = `Added ${items.length} Gaussian${items.length === 1 ? '' : 's'} (${idRange(nextId, items.length)}).${warningsLine(warnings)}`;
  return { ok: true, records: [...records, ...added], nextId: nextId + items.length, text };
}

export function editGaussians(records: readonly GaussianRecord[], nextId: number, args: ToolArgs<'edit_gaussians'>): EditOutcome {
  const index = new Map(records.map((r, i) => [r.id, i]));
  const out = [...records];
  const errors: string[] = [];
  const warnings: Warnings = new Map();
  const seen = new Set<number>();
  args.gaussians.forEach((item, i) => {
    const at = index.get(item.id);
    if (at === undefined) return void errors.push(`#${i}: unknown id ${item.id}`);
    if (seen.has(item.id)) return void errors.push(`#${i}: id ${item.id} is edited twice in this call`);
    seen.add(item.id);
    const rec = applyFields(out[at], item, `#${i}`, errors, warnings);
    if (item.group === null) delete rec.group;
    else if (item.group !== undefined) rec.group = item.group;
    out[at] = rec;
  });
  if (errors.length) return fail('edited', errors);
  const n = args.gaussians.length;
  return { ok: true, records: out, nextId, text: `Edited ${n} Gaussian${n === 1 ? '' : 's'}.${warningsLine(warnings)}` };
}

/** `unknown group 'x' (groups: a, b)` */
export function unknownGroup(name: string, records: readonly GaussianRecord[]): string {
  const names = groupNames(records);
  return `unknown group '${name}' (${names.length ? `groups: ${names.join(', ')}` : 'no groups yet'})`;
}

/** Resolves `ids` and/or `group` to a set of ids, or the reasons it cannot. */
export function selectIds(records: readonly GaussianRecord[], ids: readonly number[] | undefined, group: string | undefined): { ids: Set<number> } | { errors: string[] } {
  const errors: string[] = [];
  if (ids === undefined && group === undefined) return { errors: ['give ids or group'] };
  const present = new Set(records.map((r) => r.id));
  const chosen = new Set<number>();
  if (ids) {
    const unknown = [...new Set(ids.filter((id) => !present.has(id)))];
    if (unknown.length) errors.push(`unknown id${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ', ...' : ''}`);
    for (const id of ids) chosen.add(id);
  }
  if (group !== undefined) {
    const members = records.filter((r) => r.group === group);
    if (!members.length) errors.push(unknownGroup(group, records));
    for (const r of members) chosen.add(r.id);
  }
  return errors.length ? { errors } : { ids: chosen };
}

export function deleteGaussians(records: readonly GaussianRecord[], nextId: number, args: ToolArgs<'delete_gaussians'>): EditOutcome {
  const sel = selectIds(records, args.ids, args.group);
  if ('errors' in sel) return fail('deleted', sel.errors);
  const n = sel.ids.size;
  return { ok: true, records: records.filter((r) => !sel.ids.has(r.id)), nextId, text: `Deleted ${n} Gaussian${n === 1 ? '' : 's'}.` };
}

export function transformGroup(records: readonly GaussianRecord[], nextId: number, args: ToolArgs<'transform_group'>): EditOutcome {
  const sel = selectIds(records, args.ids, args.group);
  if ('errors' in sel) return fail('transformed', sel.errors);
  if (args.translate === undefined && args.rotate_deg === undefined && args.scale === undefined) {
    return fail('transformed', ['give translate, rotate_deg or scale']);
  }
  const finite = (v: number | readonly number[] | undefined): boolean => v === undefined || (typeof v === 'number' ? Number.isFinite(v) : v.every(Number.isFinite));
  if (!finite(args.translate) || !finite(args.rotate_deg) || !finite(args.scale)) return fail('transformed', ['every number must be finite']);
  const k = args.scale;
  if (k !== undefined && !(typeof k === 'number' ? k > 0 : k.every((x) => x > 0))) return fail('transformed', ['scale factors must be positive']);
  const chosen = records.filter((r) => sel.ids.has(r.id));
  const result = transformRecords(chosen, { translate: args.translate as Vec3 | undefined, rotateDeg: args.rotate_deg as number | Vec3 | undefined, scale: k as number | Vec3 | undefined });
  const outside = result.records.filter((r) => r.pos.some((v) => !(Math.abs(v) <= POS_LIMIT)));
  if (outside.length) {
    const r = outside[0];
    const reason = `Gaussian ${r.id} would move to [${r.pos.map((v) => shortNum(v)).join(', ')}], outside [-1.25, 1.25]^3`;
    return fail('transformed', [outside.length > 1 ? `${reason} (and ${outside.length - 1} more would)` : reason]);
  }
  const moved = new Map(result.records.map((r) => [r.id, r]));
  const out = records.map((r) => moved.get(r.id) ?? r);
  const n = chosen.length;
  const clamped: Warnings = new Map();
  if (result.clampedIds.length) clamped.set('scales clamped to [0.005, 0.5]', result.clampedIds.map((id) => `id ${id}`));
  const text = `Transformed ${n} Gaussian${n === 1 ? '' : 's'} about their centroid ${pyVec(result.oldCentroid)}; new centroid ${pyVec(result.newCentroid)}.${warningsLine(clamped)}`;
  return { ok: true, records: out, nextId, text };
}
