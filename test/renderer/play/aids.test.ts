// Placement aids and staging conveniences: fills stay inside their shape with k Gaussians,
// centred on their target within 1 mm for any seed,
// array copies step exactly, mirror copies across any axis plane reflect the covariance,
// nudges coalesce into one staged entry (undo still steps one nudge), a group rename is one
// edit, and outline colours are lifted only when too dark for the viewport.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { arrayCopies, fillShape, mirrorCopies } from '../../../src/renderer/stores/staging-aids';
import { useStagingStore } from '../../../src/renderer/stores/staging';
import { LineBasicMaterial, LineLoop, Mesh, MeshLambertMaterial, type Group } from 'three';
import { gaussianOutline, MIN_OUTLINE_LUMINANCE, OUTLINE_SIGMAS, outlineColor } from '../../../src/renderer/viewport/outlines';
import { covariance3d } from '../../../src/shared/math/covariance';
import { eulerToQuat } from '../../../src/shared/math/quaternion';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const rec = (id: number, pos: [number, number, number], group?: string): GaussianRecord => ({ id, pos, scale: [0.05, 0.1, 0.02], quat: eulerToQuat([20, 35, 50]), color: [0.5, 0.5, 0.5], opacity: 1, ...(group ? { group } : {}) });

describe('placement aids', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('fills a sphere, box and cylinder with exactly k Gaussians inside the shape', () => {
    for (const shape of ['sphere', 'box', 'cylinder'] as const) {
      const g = fillShape({ shape, centre: [0.1, -0.2, 0.3], size: [0.2, 0.3, 0.4], count: 27, color: [1, 0, 0], group: 'body' });
      expect(g).toHaveLength(27);
      for (const r of g) {
        const d = [(r.pos[0] - 0.1) / 0.2, (r.pos[1] + 0.2) / 0.3, (r.pos[2] - 0.3) / 0.4];
        if (shape === 'sphere') expect(Math.hypot(...d)).toBeLessThanOrEqual(1 + 1e-9);
        else if (shape === 'box') expect(Math.max(...d.map(Math.abs))).toBeLessThanOrEqual(1 + 1e-9);
        else {
          expect(Math.hypot(d[0], d[1])).toBeLessThanOrEqual(1 + 1e-9);
          expect(Math.abs(d[2])).toBeLessThanOrEqual(1 + 1e-9);
        }
        expect(r.group).toBe('body');
      }
      // Spread out, not piled up: no two centres coincide.
      const keys = new Set(g.map((r) => r.pos.map((x) => x.toFixed(4)).join(',')));
      expect(keys.size).toBe(27);
    }
  });

  it("a fill's centroid is its centre within 1 mm, whatever the shape, k and seed; the seed turns the pattern", () => {
    for (const shape of ['sphere', 'box', 'cylinder'] as const) {
      for (const count of [1, 5, 8, 13, 40, 200]) {
        for (const seed of [undefined, 1, 123456789]) {
          const g = fillShape({ shape, centre: [0.1, -0.2, 0.3], size: [0.15, 0.15, 0.15], count, color: [1, 1, 1], ...(seed === undefined ? {} : { seed }) });
          const c = [0, 1, 2].map((j) => g.reduce((acc, r) => acc + r.pos[j], 0) / g.length);
          expect(Math.hypot(c[0] - 0.1, c[1] + 0.2, c[2] - 0.3), `${shape} k=${count}`).toBeLessThan(0.001);
        }
      }
    }
    const a = fillShape({ shape: 'sphere', centre: [0, 0, 0], size: [0.2, 0.2, 0.2], count: 20, color: [1, 1, 1], seed: 7 });
    expect(fillShape({ shape: 'sphere', centre: [0, 0, 0], size: [0.2, 0.2, 0.2], count: 20, color: [1, 1, 1], seed: 7 })).toEqual(a);
    expect(fillShape({ shape: 'sphere', centre: [0, 0, 0], size: [0.2, 0.2, 0.2], count: 20, color: [1, 1, 1], seed: 8 })[3].pos).not.toEqual(a[3].pos);
  });

  it('array copies step by exactly i * step', () => {
    const out = arrayCopies([rec(0, [0, 0, 0]), rec(1, [0.1, 0, 0])], 3, [0, 0.2, 0]);
    expect(out).toHaveLength(6);
    expect(out[5].pos[1]).toBeCloseTo(0.6, 12);
    expect(out[4].pos).toEqual([0, 0.6000000000000001, 0]);
  });

  it('mirror copies across Z=at reflect position and covariance', () => {
    const r = rec(0, [0.1, 0.2, 0.3]);
    const [m] = mirrorCopies([r], 2, 0.1);
    expect(m.pos[0]).toBe(0.1);
    expect(m.pos[2]).toBeCloseTo(-0.1, 12);
    const a = covariance3d(r.scale, r.quat);
    const b = covariance3d(m.scale, m.quat);
    // Reflection diag(1, 1, -1): entries mixing z with x or y change sign, the rest stay.
    const sign = [1, 1, -1, 1, 1, -1, -1, -1, 1];
    for (let i = 0; i < 9; i++) expect(b[i]).toBeCloseTo(a[i] * sign[i], 12);
  });

  it('coalesces nudges of one selection into one entry; undo steps back one nudge', () => {
    const s = useStagingStore();
    s.reset([rec(0, [0, 0, 0], 'arm'), rec(1, [0.2, 0, 0], 'arm'), rec(2, [0, 0.5, 0])], 3);
    s.selectGroup('arm');
    s.nudge([0.05, 0, 0]);
    s.nudge([0.05, 0, 0]);
    s.nudge([0, 0, 0.01]);
    expect(s.ops).toHaveLength(1);
    expect(s.plan.calls[0]).toMatchObject({ tool: 'transform_group', args: { group: 'arm', translate: [0.1, 0, 0.01] } });
    s.undo();
    expect(s.plan.calls[0].args).toMatchObject({ translate: [0.1, 0, 0] });
    s.select([2]);
    s.nudge([0, 0.05, 0]);
    s.nudge([0, 0.05, 0]);
    expect(s.ops).toHaveLength(2);
    expect(s.work.records[2].pos[1]).toBeCloseTo(0.6, 12);
  });

  it('renames a group as one edit of every member', () => {
    const s = useStagingStore();
    s.reset([rec(0, [0, 0, 0], 'a'), rec(1, [0.2, 0, 0], 'a'), rec(2, [0, 0.5, 0], 'b')], 3);
    s.renameGroup('a', 'left arm');
    expect(s.plan.calls).toHaveLength(1);
    expect(s.plan.calls[0]).toMatchObject({ tool: 'edit_gaussians', args: { gaussians: [{ id: 0, group: 'left arm' }, { id: 1, group: 'left arm' }] } });
  });

  it('draws outlines at the half-alpha contour and lifts only colours too dark to see', () => {
    expect(Math.exp(-(OUTLINE_SIGMAS ** 2) / 2)).toBeCloseTo(0.5, 12);
    expect(outlineColor([1, 0.8, 0.2])).toEqual([1, 0.8, 0.2]);
    const dark = outlineColor([0.02, 0.02, 0.05]);
    expect(0.2126 * dark[0] + 0.7152 * dark[1] + 0.0722 * dark[2]).toBeCloseTo(MIN_OUTLINE_LUMINANCE, 9);
    expect(dark[2]).toBeGreaterThan(dark[0]); // still bluish
  });

  it('draws solid bodies opaque at opacity 1 (a fill reads as its render), faint below, and the selection\'s rings on top', () => {
    const parts = (g: Group): { bodies: MeshLambertMaterial[]; rings: LineBasicMaterial[] } => {
      const bodies: MeshLambertMaterial[] = [];
      const rings: LineBasicMaterial[] = [];
      g.traverse((o) => {
        if (o instanceof Mesh && o.material instanceof MeshLambertMaterial) bodies.push(o.material);
        if (o instanceof LineLoop) rings.push(o.material as LineBasicMaterial);
      });
      return { bodies, rings };
    };
    const opaque = parts(gaussianOutline(rec(0, [0, 0, 0]), false, 'solid'));
    expect(opaque.bodies).toHaveLength(1);
    expect(opaque.bodies[0].transparent).toBe(false);
    expect(opaque.bodies[0].depthWrite).toBe(true);
    expect(opaque.rings).toHaveLength(0);
    const faint = parts(gaussianOutline({ ...rec(1, [0, 0, 0]), opacity: 0.3 }, false, 'solid'));
    expect(faint.bodies[0].transparent).toBe(true);
    expect(faint.bodies[0].opacity).toBeCloseTo(0.3, 9);
    const chosen = parts(gaussianOutline(rec(2, [0, 0, 0]), true, 'solid'));
    expect(chosen.bodies).toHaveLength(1);
    expect(chosen.rings).toHaveLength(3);
    for (const m of chosen.rings) expect(m.depthTest).toBe(false);
  });

  it('joins consecutive typed edits of the same Gaussian into one entry; undo steps back one value', () => {
    const s = useStagingStore();
    s.reset([rec(0, [0, 0, 0]), rec(1, [0.2, 0, 0])], 2);
    s.editFields([0], { pos: [0.1, 0, 0] }, 'Move #0');
    s.editFields([0], { scale: [0.2, 0.2, 0.2] }, 'Resize #0');
    s.editFields([0], { pos: [0.3, 0, 0] }, 'Move #0');
    expect(s.ops.map((o) => o.label)).toEqual(['Edit #0: position, scale']);
    expect(s.plan.calls[0].args).toEqual({ gaussians: [{ id: 0, pos: [0.3, 0, 0], scale: [0.2, 0.2, 0.2] }] });
    s.editFields([1], { opacity: 0.5 }, 'Opacity 0.5');
    expect(s.ops).toHaveLength(2);
    s.undo();
    s.undo();
    expect(s.work.records[0].pos).toEqual([0.1, 0, 0]);
  });
});
