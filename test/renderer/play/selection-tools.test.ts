// The selection-tools store: hits combine with the selection (set / add / remove) and skip what
// the viewport does not draw; invert and grow; a gizmo move about the world origin stages one
// transform with the shifted translation, about own centres a field edit that keeps every centre.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { useStagingStore } from '../../../src/renderer/stores/staging';
import { usePlayViewStore } from '../../../src/renderer/stores/play-view';
import { useSelectionToolsStore } from '../../../src/renderer/stores/selection-tools';
import { applyOps } from '../../../src/renderer/stores/staging-ops';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const rec = (id: number, pos: [number, number, number]): GaussianRecord => ({ id, pos, scale: [0.05, 0.05, 0.05], quat: [1, 0, 0, 0], color: [0.5, 0.5, 0.5], opacity: 1 });

describe('selection tools store', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    useStagingStore().reset([rec(0, [0.5, 0, 0]), rec(1, [0.7, 0, 0]), rec(2, [-0.5, 0, 0])], 3);
  });

  it('combines hits with the selection and skips hidden Gaussians', () => {
    const tools = useSelectionToolsStore();
    const staging = useStagingStore();
    usePlayViewStore().toggleHidden(2);
    tools.apply([0, 2], 'set');
    expect(staging.selection).toEqual([0]);
    tools.apply([1], 'add');
    expect(staging.selection).toEqual([0, 1]);
    tools.apply([0], 'remove');
    expect(staging.selection).toEqual([1]);
    tools.invert();
    expect(staging.selection).toEqual([0]);
    tools.growDistance = 0.25;
    tools.grow();
    expect(staging.selection).toEqual([0, 1]);
    tools.selectAll();
    expect(staging.selection).toEqual([0, 1]);
  });

  it('stages a rotation about the world origin, and about own centres', () => {
    const tools = useSelectionToolsStore();
    const staging = useStagingStore();
    staging.select([0, 1]);
    tools.pivot = 'origin';
    tools.transform({ rotateDeg: 90 }, 'Rotate');
    let pos = applyOps(staging.base, staging.ops).records.map((r) => r.pos);
    expect(pos[0][0]).toBeCloseTo(0);
    expect(pos[0][1]).toBeCloseTo(0.5);
    expect(pos[1][1]).toBeCloseTo(0.7);
    expect(staging.ops.at(-1)?.label).toContain('about the world origin');
    staging.undo();
    tools.pivot = 'individual';
    tools.transform({ rotateDeg: 90 }, 'Rotate');
    const op = staging.ops.at(-1);
    expect(op?.kind).toBe('edit');
    pos = applyOps(staging.base, staging.ops).records.map((r) => r.pos);
    expect(pos[0]).toEqual([0.5, 0, 0]);
    expect(pos[1]).toEqual([0.7, 0, 0]);
    expect(applyOps(staging.base, staging.ops).records[1].quat[3]).toBeCloseTo(Math.SQRT1_2);
  });
});
