// Scramble parts that follow the author's groups: Gaussians go to the nearest primitive's group,
// an ungrouped primitive is a part of its own, and scramble() then keeps exactly those parts.
import { describe, expect, it } from 'vitest';
import type { GaussianRecord } from '../../../../src/shared/scene/gaussian';
import type { ProceduralObject } from '../../../../src/shared/authoring/primitives';
import { groupLabels, partDistance } from '../../../../src/shared/authoring/scramble/groups';
import { scramble } from '../../../../src/shared/authoring/scramble/scramble';

const lamp: ProceduralObject = {
  name: 'lamp',
  parts: [
    { kind: 'box', pos: [0, 0, -0.6], size: [0.6, 0.6, 0.1], color: '#333333', group: 'base' },
    { kind: 'cylinder', pos: [0, 0, -0.1], size: { radius: 0.04, height: 0.9 }, color: '#888888', group: 'base' },
    { kind: 'cone', pos: [0, 0, 0.5], rot: [0, 0, 30], size: { radius: 0.4, height: 0.3 }, color: '#e8c547', group: 'shade' },
    { kind: 'sphere', pos: [0.6, 0.6, 0.6], size: 0.1, color: '#ffffff' },
  ],
};

const at = (id: number, pos: [number, number, number]): GaussianRecord => ({ id, pos, scale: [0.02, 0.02, 0.02], quat: [1, 0, 0, 0], color: [1, 1, 1], opacity: 0.9 });

describe('scramble by authored groups', () => {
  it('measures distance to a part surface, negative inside', () => {
    expect(partDistance(lamp.parts[0], [0, 0, -0.6])).toBeLessThan(0);
    expect(partDistance(lamp.parts[3], [0.6, 0.6, 0.75])).toBeCloseTo(0.05, 9);
  });

  it('labels each Gaussian with its nearest primitive group and scrambles exactly those parts', () => {
    const records = [at(0, [0.25, 0.2, -0.62]), at(1, [0.04, 0, 0.1]), at(2, [0.3, 0, 0.4]), at(3, [0, 0.1, 0.62]), at(4, [0.6, 0.6, 0.69]), at(5, [-0.2, -0.25, -0.58])];
    const g = groupLabels(records, lamp);
    expect(g.names).toEqual(['base', 'shade', 'sphere #4']);
    expect(g.labels).toEqual([0, 0, 1, 1, 2, 0]);
    const out = scramble(records, { labels: g.labels, seed: 3 });
    expect(out.truth.k).toBe(3);
    const members = out.truth.parts.map((p) => p.count).sort();
    expect(members).toEqual([1, 2, 3]);
    expect(() => scramble(records, { labels: [0, 1] })).toThrow(/label every Gaussian/);
  });
});
