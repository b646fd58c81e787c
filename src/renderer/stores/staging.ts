// Staging store (Pinia setup store): the committed scene, the person's staged operations with
// undo/redo, the working scene they produce, the selection, and the commit plan.
// Inputs: scenes from episode results; edits from the viewport, inspector and tool buttons.
// Output: `work` (what the viewport draws), `change` and `plan` (what Commit will send).
// Invariants: nothing here calls LabApi; the committed scene changes only through rebase()
// with a scene the episode returned; undo/redo move whole operations.
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { Vec3 } from '../../shared/math/vec3';
import type { Quat } from '../../shared/math/quaternion';
import { applyOps, cloneRecord, isEmptyChange, opsFromChange, pendingChange, targetIds, type FieldEdit, type GaussianRecord, type NewRecord, type StagedOp, type TransformSpec, type WorkScene } from './staging-ops';
import { planCommit } from './staging-plan';
import type { SavedStaging } from './staging-persist';
import { arrayCopies, fillShape, mirrorCopies, mirrorQuatAcross, type FillSpec } from './staging-aids';

export type Preset = 'sphere' | 'disc' | 'needle';

/** Standard deviations of the add presets (a disc lies in XY, a needle along Z). */
export const PRESET_SCALES: Record<Preset, Vec3> = {
  sphere: [0.08, 0.08, 0.08],
  disc: [0.15, 0.15, 0.02],
  needle: [0.02, 0.02, 0.2],
};

const DUPLICATE_OFFSET: Vec3 = [0.05, 0.05, 0];

/** Reflection of a Gaussian's orientation across the plane X=0 ('x') or Y=0 ('y'). */
export function mirrorQuat(q: Quat, axis: 'x' | 'y'): Quat {
  return mirrorQuatAcross(q, axis === 'x' ? 0 : 1);
}

export const useStagingStore = defineStore('staging', () => {
  const base = shallowRef<WorkScene>({ records: [], nextId: 0 });
  const ops = shallowRef<StagedOp[]>([]);
  const past = shallowRef<StagedOp[][]>([]);
  const future = shallowRef<StagedOp[][]>([]);
  const selection = ref<number[]>([]);
  /** The group the selection was picked as (transforms then name the group, not ids). */
  const selectedGroup = ref<string | null>(null);

  const work = computed(() => applyOps(base.value, ops.value));
  const change = computed(() => pendingChange(base.value, work.value));
  const plan = computed(() => planCommit(base.value, change.value, ops.value));
  const dirty = computed(() => !isEmptyChange(change.value));
  const selected = computed(() => work.value.records.filter((r) => selection.value.includes(r.id)));
  const groups = computed(() => [...new Set(work.value.records.map((r) => r.group).filter((g): g is string => g !== undefined))]);

  function pruneSelection(): void {
    const ids = new Set(work.value.records.map((r) => r.id));
    selection.value = selection.value.filter((id) => ids.has(id));
    if (selectedGroup.value !== null && !groups.value.includes(selectedGroup.value)) selectedGroup.value = null;
  }

  /** A fresh committed scene: drops every staged operation (start, reload). */
  function reset(records: readonly GaussianRecord[], nextId: number): void {
    base.value = { records: records.map(cloneRecord), nextId };
    ops.value = [];
    past.value = [];
    future.value = [];
    pruneSelection();
  }

  /**
   * After a committed call: the episode's scene becomes the base. `complete` = every planned call
   * went through, so nothing stays pending; otherwise what is still missing is re-staged.
   */
  function rebase(records: readonly GaussianRecord[], nextId: number, complete: boolean): void {
    const target = work.value;
    base.value = { records: records.map(cloneRecord), nextId };
    ops.value = complete ? [] : opsFromChange(pendingChange(base.value, target, 1e-3));
    past.value = [];
    future.value = [];
    pruneSelection();
  }

  /**
   * Takes back staged edits saved before a reload or a lost connection. When the committed scene
   * is still the saved base, everything (undo history too) comes back as it was; when a call
   * went through meanwhile, the saved target is re-staged on top of the new scene. `keep` is the
   * selection to hold on to (what stays of it after the edits are back).
   */
  function adopt(saved: SavedStaging, records: readonly GaussianRecord[], nextId: number, keep: readonly number[] = []): void {
    selection.value = [...keep];
    const same = saved.base.nextId === nextId && JSON.stringify(saved.base.records) === JSON.stringify(records.map(cloneRecord));
    base.value = { records: saved.base.records.map(cloneRecord), nextId: saved.base.nextId };
    ops.value = saved.ops;
    if (same) {
      past.value = saved.past;
      future.value = saved.future;
      pruneSelection();
    } else {
      rebase(records, nextId, false);
    }
  }

  function stage(op: StagedOp): void {
    past.value = [...past.value, ops.value];
    ops.value = [...ops.value, op];
    future.value = [];
    pruneSelection();
  }

  function undo(): boolean {
    const prev = past.value[past.value.length - 1];
    if (!prev) return false;
    future.value = [ops.value, ...future.value];
    past.value = past.value.slice(0, -1);
    ops.value = prev;
    pruneSelection();
    return true;
  }

  function redo(): boolean {
    const next = future.value[0];
    if (!next) return false;
    past.value = [...past.value, ops.value];
    future.value = future.value.slice(1);
    ops.value = next;
    pruneSelection();
    return true;
  }

  function discard(): void {
    if (ops.value.length === 0) return;
    past.value = [...past.value, ops.value];
    ops.value = [];
    future.value = [];
    pruneSelection();
  }

  function select(ids: readonly number[], mode: 'replace' | 'toggle' | 'add' = 'replace'): void {
    selectedGroup.value = null;
    if (mode === 'replace') selection.value = [...new Set(ids)];
    else if (mode === 'add') selection.value = [...new Set([...selection.value, ...ids])];
    else {
      const set = new Set(selection.value);
      for (const id of ids) if (set.has(id)) set.delete(id); else set.add(id);
      selection.value = [...set];
    }
  }

  function selectGroup(group: string): void {
    selection.value = work.value.records.filter((r) => r.group === group).map((r) => r.id);
    selectedGroup.value = group;
  }

  /** Ops made by editFields (typed values), which the next typed value of the same Gaussians joins. */
  const typedEdits = new WeakSet<StagedOp>();
  const FIELD_NAMES: Record<keyof FieldEdit, string> = { pos: 'position', scale: 'scale', quat: 'rotation', color: 'colour', opacity: 'opacity', group: 'group' };

  /**
   * Field edits of the given Gaussians (inspector, outliner). Consecutive typed edits of the same
   * Gaussians are one staged entry (later values of a field replace earlier ones); undo still
   * steps back one typed value.
   */
  function editFields(ids: readonly number[], fields: FieldEdit, label: string): void {
    if (ids.length === 0) return;
    const last = ops.value[ops.value.length - 1];
    const key = [...ids].sort((a, b) => a - b).join(',');
    if (last && last.kind === 'edit' && typedEdits.has(last) && last.edits.map((e) => e.id).sort((a, b) => a - b).join(',') === key) {
      const merged = last.edits.map((e) => ({ id: e.id, fields: { ...e.fields, ...fields } }));
      const names = Object.keys(merged[0].fields).map((k) => FIELD_NAMES[k as keyof FieldEdit]);
      const op: StagedOp = { kind: 'edit', label: `Edit ${ids.length === 1 ? `#${ids[0]}` : `${ids.length} Gaussians`}: ${names.join(', ')}`, edits: merged };
      typedEdits.add(op);
      past.value = [...past.value, ops.value];
      ops.value = [...ops.value.slice(0, -1), op];
      future.value = [];
      return;
    }
    const op: StagedOp = { kind: 'edit', label, edits: ids.map((id) => ({ id, fields: { ...fields } })) };
    typedEdits.add(op);
    stage(op);
  }

  /** The op of a rigid move on `scene`: one ungrouped Gaussian becomes a field edit, a set a transform. */
  function buildMove(scene: WorkScene, ids: readonly number[], group: string | null, spec: TransformSpec, label: string): StagedOp | null {
    if (ids.length === 0) return null;
    if (ids.length === 1 && group === null) {
      const moved = applyOps(scene, [{ kind: 'transform', label, ids: [...ids], spec }]).records.find((x) => x.id === ids[0]);
      if (!moved) return null;
      return { kind: 'edit', label, edits: [{ id: ids[0], fields: { pos: moved.pos, scale: moved.scale, quat: moved.quat } }] };
    }
    return group !== null ? { kind: 'transform', label, ids: [], group, spec } : { kind: 'transform', label, ids: [...ids], spec };
  }

  /** A rigid move of the selection: one Gaussian becomes a field edit, a set a transform. */
  function transformSelection(spec: TransformSpec, label: string): void {
    const op = buildMove(work.value, selection.value, selectedGroup.value, spec, label);
    if (op) stage(op);
  }

  /** Running totals of coalesced nudges (keyed by the op that holds them). */
  const nudgeTotals = new WeakMap<StagedOp, { key: string; total: Vec3 }>();
  const nudgeLabel = (t: Vec3): string => `Nudge [${t.map((x) => Math.round(x * 1e4) / 1e4 + 0).join(', ')}]`;

  /**
   * Arrow-key nudges of one selection coalesce into one staged entry (undo still steps back one
   * nudge): the last op is rebuilt with the summed translation when it nudged the same target.
   */
  function nudge(delta: Vec3): void {
    const ids = selection.value;
    const group = selectedGroup.value;
    const key = `${group ?? ''}|${[...ids].sort((a, b) => a - b).join(',')}`;
    const last = ops.value[ops.value.length - 1];
    const held = last ? nudgeTotals.get(last) : undefined;
    const prior = held && held.key === key ? ops.value.slice(0, -1) : ops.value;
    const total: Vec3 = held && held.key === key ? [held.total[0] + delta[0], held.total[1] + delta[1], held.total[2] + delta[2]] : [...delta];
    const op = buildMove(applyOps(base.value, prior), ids, group, { translate: total }, nudgeLabel(total));
    if (!op) return;
    nudgeTotals.set(op, { key, total });
    past.value = [...past.value, ops.value];
    ops.value = [...prior, op];
    future.value = [];
  }

  function addNew(items: NewRecord[], label: string, selectAdded = true): void {
    if (items.length === 0) return;
    const first = work.value.nextId;
    stage({ kind: 'add', label, items });
    if (selectAdded) select(items.map((_, i) => first + i));
  }

  function addPreset(preset: Preset, centre: Vec3, color: Vec3, group: string | null): void {
    const item: NewRecord = { pos: [...centre], scale: [...PRESET_SCALES[preset]], quat: [1, 0, 0, 0], color: [...color], opacity: 1 };
    if (group) item.group = group;
    addNew([item], `Add ${preset}`);
  }

  const asNew = (r: GaussianRecord): NewRecord => {
    const { id: _id, ...rest } = cloneRecord(r);
    return rest;
  };

  function duplicateSelection(): void {
    addNew(selected.value.map((r) => ({ ...asNew(r), pos: [r.pos[0] + DUPLICATE_OFFSET[0], r.pos[1] + DUPLICATE_OFFSET[1], r.pos[2] + DUPLICATE_OFFSET[2]] as Vec3 })), `Duplicate ${selected.value.length}`);
  }

  /** Mirrored copies of the selection across the plane {axis = at} (X, Y or Z). */
  function mirrorSelection(axis: 'x' | 'y' | 'z', at = 0): void {
    const k = ({ x: 0, y: 1, z: 2 } as const)[axis];
    addNew(mirrorCopies(selected.value, k, at), `Mirror ${selected.value.length} across ${axis.toUpperCase()}=${at}`);
  }

  /** `copies` more copies of the selection, copy i shifted by i * step. */
  function arraySelection(copies: number, step: Vec3): void {
    addNew(arrayCopies(selected.value, copies, step), `Array ${selected.value.length} x ${copies} along [${step.join(', ')}]`);
  }

  /** k Gaussians filling a sphere, box or cylinder. */
  function addFill(spec: FillSpec): void {
    addNew(fillShape(spec), `Fill ${spec.shape} with ${spec.count}`);
  }

  /** Every member of a group relabelled (one edit_gaussians on commit). */
  function renameGroup(from: string, to: string): void {
    const name = to.trim();
    if (!name || name === from) return;
    const ids = work.value.records.filter((r) => r.group === from).map((r) => r.id);
    editFields(ids, { group: name }, `Rename group '${from}' to '${name}'`);
    if (selectedGroup.value === from) selectedGroup.value = name;
  }

  function deleteSelection(): void {
    const ids = selection.value;
    if (ids.length === 0) return;
    const group = selectedGroup.value;
    stage(group !== null ? { kind: 'delete', label: `Delete group '${group}'`, ids: [], group } : { kind: 'delete', label: `Delete ${ids.length}`, ids: [...ids] });
    selection.value = [];
    selectedGroup.value = null;
  }

  /** Ids a staged op touches in the current working scene (for highlighting in the list). */
  function opTargets(op: StagedOp): number[] {
    if (op.kind === 'add') return [];
    if (op.kind === 'edit') return op.edits.map((e) => e.id);
    return targetIds(work.value.records, op.ids, op.group);
  }

  return {
    base, ops, past, future, selection, selectedGroup, work, change, plan, dirty, selected, groups,
    reset, rebase, adopt, stage, undo, redo, discard, select, selectGroup, editFields, transformSelection, nudge,
    addNew, addPreset, duplicateSelection, mirrorSelection, arraySelection, addFill, renameGroup, deleteSelection, opTargets,
  };
});

