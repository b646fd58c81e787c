// Staged edits and the commit-to-call translation: each pending change becomes exactly the tool
// call a model would write, checked against the episode's own operations (shared ops-edit).
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { useStagingStore, mirrorQuat } from '../../../src/renderer/stores/staging';
import type { GaussianRecord } from '../../../src/renderer/stores/staging-ops';
import { addGaussians, editGaussians, transformGroup } from '../../../src/shared/kinds/splatbench/ops-edit';
import { TOOL_SCHEMAS } from '../../../src/shared/kinds/splatbench/tools';
import { covariance3d } from '../../../src/shared/math/covariance';
import type { ToolArgs } from '../../../src/shared/kinds/splatbench/tools';

const rec = (id: number, pos: [number, number, number], group?: string): GaussianRecord => ({
  id, pos, scale: [0.1, 0.1, 0.1], quat: [1, 0, 0, 0], color: [0.5, 0.5, 0.5], opacity: 1, ...(group ? { group } : {}),
});

const BASE = [rec(0, [0, 0, 0], 'a'), rec(1, [0.2, 0, 0], 'a'), rec(2, [0, 0.5, 0], 'b'), rec(4, [0, 0, 0.5])];

function parsed<T extends keyof typeof TOOL_SCHEMAS>(tool: T, args: unknown): ToolArgs<T> {
  return TOOL_SCHEMAS[tool].parse(args) as ToolArgs<T>;
}

describe('staging store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('folds moves of a new Gaussian into one add_gaussians with the ids the episode will assign', () => {
    const s = useStagingStore();
    s.reset(BASE, 5);
    s.addPreset('disc', [0, 0, 0.3], [1, 0, 0], 'top');
    expect(s.selection).toEqual([5]);
    s.transformSelection({ translate: [0.1, 0, 0] }, 'drag');
    s.editFields([5], { color: [0, 1, 0] }, 'colour');
    expect(s.plan.single).toBe(true);
    expect(s.plan.calls).toEqual([
      { tool: 'add_gaussians', args: { gaussians: [{ pos: [0.1, 0, 0.3], color: [0, 1, 0], scale: [0.15, 0.15, 0.02], group: 'top' }] }, summary: 'Add 1 Gaussian' },
    ]);
    const out = addGaussians(BASE, 5, 300, parsed('add_gaussians', s.plan.calls[0].args));
    expect(out.ok && out.records.map((r) => r.id)).toEqual([0, 1, 2, 4, 5]);
  });

  it('sends only the changed fields of existing Gaussians as edit_gaussians', () => {
    const s = useStagingStore();
    s.reset(BASE, 5);
    s.editFields([2], { opacity: 0.5 }, 'opacity');
    s.select([4]);
    s.nudge([0, 0, -0.1]);
    expect(s.plan.calls).toEqual([
      { tool: 'edit_gaussians', args: { gaussians: [{ id: 2, opacity: 0.5 }, { id: 4, pos: [0, 0, 0.4] }] }, summary: 'Edit 2 Gaussians' },
    ]);
    expect(editGaussians(BASE, 5, parsed('edit_gaussians', s.plan.calls[0].args)).ok).toBe(true);
  });

  it('composes rigid moves of a group into one transform_group that lands where the preview is', () => {
    const s = useStagingStore();
    s.reset(BASE, 5);
    s.selectGroup('a');
    s.transformSelection({ translate: [0, 0.1, 0] }, 'move');
    s.transformSelection({ rotateDeg: 90 }, 'turn');
    s.transformSelection({ scale: 2 }, 'grow');
    const [call] = s.plan.calls;
    expect(s.plan.single).toBe(true);
    expect(call.tool).toBe('transform_group');
    expect(call.args).toEqual({ group: 'a', translate: [0, 0.1, 0], rotate_deg: 90, scale: 2 });
    const out = transformGroup(BASE, 5, parsed('transform_group', call.args));
    if (!out.ok) throw new Error(out.error);
    for (const r of s.work.records) {
      const server = out.records.find((x) => x.id === r.id) as GaussianRecord;
      r.pos.forEach((v, k) => expect(server.pos[k]).toBeCloseTo(v, 6));
      r.scale.forEach((v, k) => expect(server.scale[k]).toBeCloseTo(v, 6));
    }
  });

  it('uses Euler degrees for tilted rotations and falls back to edit_gaussians when moves do not compose', () => {
    const s = useStagingStore();
    s.reset(BASE, 5);
    s.select([0, 2]);
    s.transformSelection({ rotateDeg: [30, 0, 0] }, 'tilt');
    expect(s.plan.calls[0]).toMatchObject({ tool: 'transform_group', args: { ids: [0, 2], rotate_deg: [30, 0, 0] } });
    s.transformSelection({ scale: [1, 2, 1] }, 'stretch');
    expect(s.plan.calls[0].tool).toBe('edit_gaussians');
    expect(s.plan.calls).toHaveLength(1);
  });

  it('deletes a whole group by name and a partial selection by ids', () => {
    const s = useStagingStore();
    s.reset(BASE, 5);
    s.selectGroup('a');
    s.deleteSelection();
    expect(s.plan.calls).toEqual([{ tool: 'delete_gaussians', args: { group: 'a' }, summary: "Delete group 'a'" }]);
    s.undo();
    s.select([1, 4]);
    s.deleteSelection();
    expect(s.plan.calls[0].args).toEqual({ ids: [1, 4] });
  });

  it('says when a change needs several calls and orders them delete, edit, add', () => {
    const s = useStagingStore();
    s.reset(BASE, 5);
    s.select([4]);
    s.deleteSelection();
    s.editFields([0], { color: [1, 1, 1] }, 'white');
    s.addPreset('sphere', [0, 0, 0], [0, 0, 1], null);
    expect(s.plan.single).toBe(false);
    expect(s.plan.calls.map((c) => c.tool)).toEqual(['delete_gaussians', 'edit_gaussians', 'add_gaussians']);
    expect(s.plan.reason).toMatch(/No single tool.*3 separate calls \(each charged\)/);
  });

  it('undoes and redoes whole operations and keeps the rest pending after a partial commit', () => {
    const s = useStagingStore();
    s.reset(BASE, 5);
    s.editFields([0], { pos: [0.3, 0, 0] }, 'move');
    s.addPreset('needle', [0, 0, 0], [0, 0, 0], null);
    expect(s.undo()).toBe(true);
    expect(s.plan.calls.map((c) => c.tool)).toEqual(['edit_gaussians']);
    expect(s.redo()).toBe(true);
    expect(s.redo()).toBe(false);
    expect(s.plan.calls.map((c) => c.tool)).toEqual(['edit_gaussians', 'add_gaussians']);
    // The edit went through (as the episode rounds it), the add did not: only the add stays.
    const committed = BASE.map((r) => (r.id === 0 ? { ...r, pos: [0.30001, 0, 0] as [number, number, number] } : r));
    s.rebase(committed, 5, false);
    expect(s.plan.calls.map((c) => c.tool)).toEqual(['add_gaussians']);
    expect(s.work.records.map((r) => r.id)).toEqual([0, 1, 2, 4, 5]);
    s.rebase(s.work.records, 6, true);
    expect(s.dirty).toBe(false);
  });

  it('mirrors copies across X=0 with the reflected covariance', () => {
    const s = useStagingStore();
    const tilted: GaussianRecord = { ...rec(0, [0.4, 0.2, 0.1]), scale: [0.3, 0.1, 0.05], quat: [0.9, 0.1, 0.3, 0.2].map((x, _i, a) => x / Math.hypot(...a)) as [number, number, number, number] };
    s.reset([tilted], 1);
    s.select([0]);
    s.mirrorSelection('x');
    const copy = s.work.records[1];
    expect(copy.pos).toEqual([-0.4, 0.2, 0.1]);
    const a = covariance3d(tilted.scale, tilted.quat);
    const b = covariance3d(copy.scale, mirrorQuat(tilted.quat, 'x'));
    const m = [-1, 1, 1];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(b[i * 3 + j]).toBeCloseTo(m[i] * m[j] * a[i * 3 + j], 12);
    expect(s.plan.calls[0].tool).toBe('add_gaussians');
  });
});
