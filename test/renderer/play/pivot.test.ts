// Pivot maths of the play gizmo: a move about the world origin, sent as the centroid-based
// transform_group with a shifted translation, lands where rotating about the origin puts every
// point; the centroid pivot leaves the spec alone; individual origins keep the centres.
import { describe, expect, it } from 'vitest';
import { aboutOwnOrigins, pivotPoint, specAboutPivot } from '../../../src/renderer/viewport/pivot';
import { transformRecords } from '../../../src/shared/scene/transform';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const rec = (id: number, pos: [number, number, number]): GaussianRecord => ({ id, pos, scale: [0.05, 0.1, 0.02], quat: [1, 0, 0, 0], color: [0.5, 0.5, 0.5], opacity: 0.9 });
const set = [rec(0, [0.5, 0, 0]), rec(1, [0.7, 0.2, 0.1])];

describe('gizmo pivots', () => {
  it('rotating 90 degrees about the world origin moves the set about the origin', () => {
    const c = pivotPoint(set, 'centre');
    expect(c[0]).toBeCloseTo(0.6);
    expect(pivotPoint(set, 'origin')).toEqual([0, 0, 0]);
    const spec = specAboutPivot({ rotateDeg: 90 }, c, [0, 0, 0]);
    const out = transformRecords(set, spec).records;
    // About +Z: (x, y) -> (-y, x).
    expect(out[0].pos[0]).toBeCloseTo(0);
    expect(out[0].pos[1]).toBeCloseTo(0.5);
    expect(out[1].pos[0]).toBeCloseTo(-0.2);
    expect(out[1].pos[1]).toBeCloseTo(0.7);
    expect(out[1].pos[2]).toBeCloseTo(0.1);
    // The same rotation about the centre leaves the centroid where it was.
    const centred = transformRecords(set, specAboutPivot({ rotateDeg: 90 }, c, c)).records;
    expect((centred[0].pos[0] + centred[1].pos[0]) / 2).toBeCloseTo(0.6);
  });

  it('scales about the origin with the translation kept', () => {
    const c = pivotPoint(set, 'centre');
    const out = transformRecords(set, specAboutPivot({ scale: 2, translate: [0, 0, 1] }, c, [0, 0, 0])).records;
    expect(out[0].pos).toEqual([expect.closeTo(1), expect.closeTo(0), expect.closeTo(1)]);
    expect(out[1].pos).toEqual([expect.closeTo(1.4), expect.closeTo(0.4), expect.closeTo(1.2)]);
  });

  it('leaves a centroid-pivot spec as it is', () => {
    const c = pivotPoint(set, 'centre');
    expect(specAboutPivot({ rotateDeg: 30, scale: [1, 2, 1] }, c, c)).toEqual({ rotateDeg: 30, scale: [1, 2, 1] });
  });

  it('turns each Gaussian about its own centre for individual origins', () => {
    const out = aboutOwnOrigins(set, { rotateDeg: 90, translate: [0, 0, 0.5] });
    expect(out[0].pos).toEqual([0.5, 0, 0.5]);
    expect(out[1].pos[0]).toBeCloseTo(0.7);
    expect(out[1].quat[0]).toBeCloseTo(Math.SQRT1_2);
    expect(out[1].quat[3]).toBeCloseTo(Math.SQRT1_2);
  });
});
