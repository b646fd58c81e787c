// The labelling rule on hand-made layouts at and around every class boundary, for both
// observers (camera: margin 15 deg; person: margin 10 deg), and the facing labelling.
import { describe, expect, it } from 'vitest';
import {
  angleInClass, classifyAngle, facingRelationOf, MARGIN_DEG, relationOf, RELATION_CLASSES, signedAngleDeg,
} from '../../../../src/shared/kinds/relation/labels';

const DEG = Math.PI / 180;

/**
 * A layout with forward = reference - observer pointing along `heading` (degrees) and the
 * target at `angle` degrees from forward, 2 m beyond the reference.
 */
function layout(angle: number, heading = 0, origin: [number, number] = [0, 0]) {
  const observer = [origin[0], origin[1], 1.7];
  const reference = [origin[0] + 5 * Math.cos(heading * DEG), origin[1] + 5 * Math.sin(heading * DEG), 0];
  const target = [reference[0] + 2 * Math.cos((heading + angle) * DEG), reference[1] + 2 * Math.sin((heading + angle) * DEG), 0];
  return { observer, reference, target };
}

describe('signedAngleDeg', () => {
  it('is positive towards the left of forward (counter-clockwise seen from +Z)', () => {
    expect(signedAngleDeg([1, 0], [0, 1])).toBeCloseTo(90, 12);
    expect(signedAngleDeg([1, 0], [0, -1])).toBeCloseTo(-90, 12);
    expect(signedAngleDeg([1, 0], [-1, 0])).toBeCloseTo(180, 12);
    expect(signedAngleDeg([0, 1], [-1, 0])).toBeCloseTo(90, 12);
  });
});

for (const observer of ['ego', 'allo'] as const) {
  const m = MARGIN_DEG[observer];
  describe(`boundaries for the ${observer === 'ego' ? 'camera' : 'person'} (m = ${m})`, () => {
    const e = 1e-6;
    const cases: [number, string][] = [
      [0, 'front'], [45 - m - e, 'front'], [45 - m, 'ambiguous'], [45, 'ambiguous'], [45 + m, 'ambiguous'],
      [45 + m + e, 'left'], [90, 'left'], [135 - m - e, 'left'], [135 - m, 'ambiguous'], [135, 'ambiguous'],
      [135 + m, 'ambiguous'], [135 + m + e, 'back'], [180, 'back'],
      [-(45 - m - e), 'front'], [-(45 - m), 'ambiguous'], [-(45 + m + e), 'right'], [-90, 'right'],
      [-(135 - m - e), 'right'], [-(135 - m), 'ambiguous'], [-(135 + m + e), 'back'], [-179.9, 'back'],
    ];
    it.each(cases)('angle %f is %s', (angle, label) => {
      expect(classifyAngle(angle, m)).toBe(label);
    });
    it.each([[0, [0, 0]], [37, [3, -2]], [-150, [-10, 4]], [200, [1, 1]]] as [number, [number, number]][])(
      'hand-made layouts (heading %f) give the same classes around every boundary', (heading, origin) => {
        // Away from the exact boundaries (where float rounding may fall either side).
        const probe: [number, string][] = [
          [0, 'front'], [45 - m - 0.01, 'front'], [45 - m + 0.01, 'ambiguous'], [45 + m - 0.01, 'ambiguous'],
          [45 + m + 0.01, 'left'], [135 - m - 0.01, 'left'], [135 - m + 0.01, 'ambiguous'], [135 + m - 0.01, 'ambiguous'],
          [135 + m + 0.01, 'back'], [-(45 + m + 0.01), 'right'], [-(135 - m - 0.01), 'right'], [-(135 + m + 0.01), 'back'],
        ];
        for (const [angle, label] of probe) {
          const r = relationOf(layout(angle, heading, origin), m);
          expect(r.label, `angle ${angle}`).toBe(label);
          expect(r.angle).toBeCloseTo(angle > 180 ? angle - 360 : angle, 9);
        }
      });
    it('draws angles only inside the unambiguous sector of each class', () => {
      for (const cls of RELATION_CLASSES) {
        for (const u of [0, 1e-9, 0.25, 0.5, 0.999999999]) expect(classifyAngle(angleInClass(cls, m, u), m)).toBe(cls);
      }
    });
  });
}

describe('relationOf', () => {
  it('ignores heights: only the ground plane counts', () => {
    const g = layout(100);
    expect(relationOf({ ...g, target: [g.target[0], g.target[1], 50] }, 15).label).toBe('left');
  });
  it('front means the target is beyond the reference as seen from the observer', () => {
    expect(relationOf({ observer: [0, 0], reference: [4, 0], target: [7, 0.2] }, 15).label).toBe('front');
    expect(relationOf({ observer: [0, 0], reference: [4, 0], target: [1, 0.2] }, 15).label).toBe('back');
    expect(relationOf({ observer: [0, 0], reference: [4, 0], target: [4, 3] }, 15).label).toBe('left');
    expect(relationOf({ observer: [0, 0], reference: [4, 0], target: [4, -3] }, 15).label).toBe('right');
  });
  it('rejects coincident positions with a clear error', () => {
    expect(() => relationOf({ observer: [1, 1], reference: [1, 1], target: [2, 2] }, 10)).toThrow(/distinct/);
  });
});

describe('facingRelationOf (the person\'s own facing direction)', () => {
  it('uses the yaw as forward, not the direction to the reference', () => {
    const g = { reference: [0, 0], target: [0, 2] }; // target at +Y of the reference
    expect(facingRelationOf(g, 0, 10).label).toBe('left'); // facing +X
    expect(facingRelationOf(g, 90, 10).label).toBe('front'); // facing +Y
    expect(facingRelationOf(g, 180, 10).label).toBe('right');
    expect(facingRelationOf(g, -90, 10).label).toBe('back');
    expect(facingRelationOf(g, 45, 10).label).toBe('ambiguous');
    expect(facingRelationOf(g, 90 - 34.99, 10).label).toBe('front');
    expect(facingRelationOf(g, 90 - 35.01, 10).label).toBe('ambiguous');
  });
});
