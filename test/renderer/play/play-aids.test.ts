// The play view's second-pass aids (issue 30): a placement pairs only the two clicks just made
// and shows a pending click on the other photo as its viewing ray; staged transforms send what
// they show (a typed 20 degrees is snapped in its field; merged transforms are said plainly and
// write no rot for Gaussians only moved); fills inherit the selection's colour and group and have
// a solid preset; the outliner folds groups; the fog hint and the crowd outline style.
import { beforeEach, describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { clickPhoto, epipolarPolyline, IDLE, markOf } from '../../../src/renderer/components/play/placement';
import { projectPoint } from '../../../src/shared/camera/triangulate';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { useStagingStore } from '../../../src/renderer/stores/staging';
import { arrayCopies, fillShape, fogHint, mirrorCopies, inheritFrom, solidCount, SOLID_SIGMA } from '../../../src/renderer/stores/staging-aids';
import { resolveOutlineStyle } from '../../../src/renderer/stores/play-view';
import { sameRotation } from '../../../src/renderer/stores/staging-ops';
import GroupTransform from '../../../src/renderer/components/play/GroupTransform.vue';
import Outliner from '../../../src/renderer/components/play/Outliner.vue';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';
import type { Vec3 } from '../../../src/shared/math/vec3';

const rec = (id: number, pos: Vec3, group?: string, quat: [number, number, number, number] = [1, 0, 0, 0]): GaussianRecord => ({
  id, pos, scale: [0.05, 0.05, 0.05], quat, color: [0.2, 0.4, 0.6], opacity: 1, ...(group ? { group } : {}),
});

describe('placement from two photos', () => {
  it('pairs the two clicks just made; a click after a pair starts a new placement', () => {
    let s = clickPhoto(IDLE, 0, { u: 1, v: 2 });
    expect(s).toEqual({ step: 'pending', slot: 0, at: { u: 1, v: 2 } });
    s = clickPhoto(s, 0, { u: 3, v: 4 });
    expect(markOf(s, 0)).toEqual({ u: 3, v: 4 });
    expect(markOf(s, 1)).toBeNull();
    s = clickPhoto(s, 1, { u: 5, v: 6 });
    expect(s).toEqual({ step: 'ready', at: [{ u: 3, v: 4 }, { u: 5, v: 6 }] });
    // The next click in photo 1 must not re-triangulate against the old photo-2 click.
    s = clickPhoto(s, 0, { u: 7, v: 8 });
    expect(s).toEqual({ step: 'pending', slot: 0, at: { u: 7, v: 8 } });
    expect(markOf(s, 1)).toBeNull();
    // Starting in photo 2 works the same way round.
    expect(clickPhoto(clickPhoto(IDLE, 1, { u: 1, v: 1 }), 0, { u: 2, v: 2 })).toEqual({ step: 'ready', at: [{ u: 2, v: 2 }, { u: 1, v: 1 }] });
  });

  it('draws a pending click on the other photo as its viewing ray, through the true point', () => {
    const a = orbitCamera({ azimuth: 0, elevation: 20 });
    const b = orbitCamera({ azimuth: 120, elevation: 20 });
    const p: Vec3 = [0.12, -0.08, 0.1];
    const pa = projectPoint(a, p);
    const pb = projectPoint(b, p);
    if (!pa || !pb) throw new Error('behind');
    const line = epipolarPolyline(a, pa, b);
    expect(line.length).toBeGreaterThan(10);
    // Distance from the true pixel in photo 2 to the polyline: below a tenth of a pixel.
    let best = Infinity;
    for (let i = 1; i < line.length; i++) {
      const [s, e] = [line[i - 1], line[i]];
      const dx = e.u - s.u;
      const dy = e.v - s.v;
      const t = Math.max(0, Math.min(1, ((pb.u - s.u) * dx + (pb.v - s.v) * dy) / (dx * dx + dy * dy)));
      best = Math.min(best, Math.hypot(s.u + t * dx - pb.u, s.v + t * dy - pb.v));
    }
    expect(best).toBeLessThan(0.1);
  });
});

describe('transforms send what they show', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('writes no rot for Gaussians only moved when transforms of different sets merge, and says why', () => {
    const s = useStagingStore();
    // Rounded quaternions as a scene holds them (not unit length to the last digit).
    const q: [number, number, number, number] = [0.923880, 0.382683, 0, 0];
    s.reset([rec(0, [0, 0, 0], 'a', q), rec(1, [0.2, 0, 0], 'a', q), rec(2, [0, 0.5, 0], 'b', q), rec(3, [0.1, 0.5, 0], 'b', q)], 4);
    s.selectGroup('a');
    s.transformSelection({ translate: [0, 0.1, 0] }, 'move a');
    s.selectGroup('b');
    s.transformSelection({ rotateDeg: 30 }, 'turn b');
    expect(s.plan.calls).toHaveLength(1);
    const [call] = s.plan.calls;
    expect(call.tool).toBe('edit_gaussians');
    const items = (call.args as { gaussians: Record<string, unknown>[] }).gaussians;
    expect(items.filter((g) => g.id === 0 || g.id === 1).every((g) => !('rot' in g) && 'pos' in g)).toBe(true);
    expect(items.filter((g) => g.id === 2 || g.id === 3).every((g) => 'rot' in g)).toBe(true);
    expect(s.plan.merged).toContain('2 staged transforms go out as part of one edit_gaussians');
    expect(s.plan.merged).toContain('Rotation (rot) is written for 2 Gaussians');
  });

  it('sends a lone transform as the transform_group it shows, with no merge note', () => {
    const s = useStagingStore();
    s.reset([rec(0, [0, 0, 0], 'a'), rec(1, [0.2, 0, 0], 'a')], 2);
    s.selectGroup('a');
    s.transformSelection({ rotateDeg: 15 }, 'turn');
    expect(s.plan.calls[0]).toMatchObject({ tool: 'transform_group', args: { group: 'a', rotate_deg: 15 } });
    expect(s.plan.merged).toBeUndefined();
  });

  it('compares rotations as rotations (normalised, either sign)', () => {
    const rounded = [0.92388, 0.382683, 0, 0];
    expect(sameRotation(rounded, rounded.map((x) => x / Math.hypot(...rounded)))).toBe(true);
    expect(sameRotation([1, 0, 0, 0], [-1, 0, 0, 0])).toBe(true);
    expect(sameRotation([1, 0, 0, 0], [0.9999, 0.0141, 0, 0])).toBe(false);
  });

  it('snaps a typed 20 degrees to 15 in the field itself, says so, and stages 15', async () => {
    const s = useStagingStore();
    s.reset([rec(0, [0, 0, 0], 'a'), rec(1, [0.2, 0, 0], 'a')], 2);
    s.selectGroup('a');
    const w = mount(GroupTransform);
    const field = w.get('[data-testid="gt-rot-z"]');
    (field.element as HTMLInputElement).value = '20';
    await field.trigger('change');
    expect((field.element as HTMLInputElement).value).toBe('15');
    expect(w.get('[data-testid="gt-snap-note"]').text()).toContain('20° about Z snapped to 15°');
    expect(w.get('[data-testid="gt-call"]').text()).toBe('transform_group {"group":"a","rotate_deg":15}');
    // 20 typed again: the field must not keep showing 20 although nothing kept changed.
    (field.element as HTMLInputElement).value = '20';
    await field.trigger('change');
    expect((field.element as HTMLInputElement).value).toBe('15');
    await w.get('[data-testid="gt-apply"]').trigger('click');
    expect(s.plan.calls[0].args).toEqual({ group: 'a', rotate_deg: 15 });
  });

  it('takes a typed target centre as the translation that puts the centroid there', async () => {
    const s = useStagingStore();
    s.reset([rec(0, [0, 0, 0], 'a'), rec(1, [0.2, 0, 0], 'a')], 2);
    s.selectGroup('a');
    const w = mount(GroupTransform);
    const x = w.get('[data-testid="gt-centre-0"]');
    (x.element as HTMLInputElement).value = '0.5';
    await x.trigger('change');
    expect(s.plan.calls[0]).toMatchObject({ tool: 'transform_group', args: { group: 'a', translate: [0.4, 0, 0] } });
    expect(s.work.records.map((r) => r.pos[0])).toEqual([0.4, 0.6000000000000001]);
  });
});

describe('fills, outliner, outlines', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('inherits the mean colour and the shared group of the selection', () => {
    expect(inheritFrom([])).toBeNull();
    expect(inheritFrom([rec(0, [0, 0, 0], 'body'), { ...rec(1, [0, 0, 0], 'body'), color: [0.4, 0.4, 0.4] }])).toEqual({ color: [0.30000000000000004, 0.4, 0.5], group: 'body' });
    expect(inheritFrom([rec(0, [0, 0, 0], 'a'), rec(1, [0, 0, 0], 'b')])).toEqual({ color: [0.2, 0.4, 0.6] });
  });

  it('array and mirror copies keep each source Gaussian\'s colour and group', () => {
    const src = [{ ...rec(0, [0.1, 0, 0], 'arm'), color: [0.9, 0.1, 0.1] as Vec3 }, rec(1, [0.2, 0, 0])];
    for (const out of [arrayCopies(src, 2, [0, 0.1, 0]), mirrorCopies(src, 0, 0)]) {
      out.forEach((g, i) => {
        expect(g.color).toEqual(src[i % 2].color);
        expect(g.group).toBe(src[i % 2].group);
      });
    }
  });

  it('a solid fill overlaps its neighbours (sigma SOLID_SIGMA of the spacing); the preset count fits the radius', () => {
    const spec = { shape: 'sphere' as const, centre: [0, 0, 0] as Vec3, size: [0.2, 0.2, 0.2] as Vec3, count: 64, color: [1, 0, 0] as Vec3 };
    const soft = fillShape(spec)[0].scale[0];
    const solid = fillShape({ ...spec, density: 'solid' })[0].scale[0];
    const spacing = Math.cbrt(((4 / 3) * Math.PI * 0.008) / 64);
    expect(solid).toBeCloseTo(spacing * SOLID_SIGMA, 9);
    expect(solid).toBeGreaterThan(soft * 1.2);
    expect(solidCount('sphere', [0.2, 0.2, 0.2])).toBe(65);
    expect(solidCount('box', [0.2, 0.2, 0.2])).toBe(125);
  });

  it('hints that one big opaque Gaussian renders as fog, not when it is small or has neighbours', () => {
    const big = { ...rec(0, [0, 0, 0]), scale: [0.15, 0.15, 0.15] as Vec3 };
    expect(fogHint(big, [big])).toContain('soft blob');
    const small = { ...rec(1, [0, 0, 0]), scale: [0.02, 0.02, 0.02] as Vec3 };
    expect(fogHint(small, [small])).toBeNull();
    expect(fogHint(big, [big, rec(2, [0.05, 0, 0])])).toBeNull();
  });

  it('draws solid bodies in auto (a fill looks as opaque as its render), and the legend choice wins', () => {
    expect(resolveOutlineStyle('auto')).toBe('solid');
    expect(resolveOutlineStyle('ring')).toBe('ring');
    expect(resolveOutlineStyle('rings')).toBe('rings');
    expect(resolveOutlineStyle('points')).toBe('points');
  });

  it('folds every group (and the ungrouped) to one row until unfolded', async () => {
    const s = useStagingStore();
    s.reset([...Array.from({ length: 150 }, (_, i) => rec(i, [0, 0, 0], 'body')), ...Array.from({ length: 150 }, (_, i) => rec(150 + i, [0, 0, 0]))], 300);
    const w = mount(Outliner);
    expect(w.findAll('[data-testid^="ol-g-"]')).toHaveLength(0);
    expect(w.get('[data-testid="ol-count-body"]').text()).toBe('150');
    await w.get('[data-testid="ol-fold-body"]').trigger('click');
    expect(w.findAll('[data-testid^="ol-g-"]')).toHaveLength(150);
    s.select([0, 1, 2]);
    await w.vm.$nextTick();
    expect(w.get('[data-testid="ol-count-body"]').text()).toBe('3 of 150');
    await w.get('[data-testid="ol-fold-all"]').trigger('click');
    expect(w.findAll('[data-testid^="ol-g-"]')).toHaveLength(300);
    await w.get('[data-testid="ol-fold-all"]').trigger('click');
    expect(w.findAll('[data-testid^="ol-g-"]')).toHaveLength(0);
  });
});
