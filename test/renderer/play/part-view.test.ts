// The part view's numbers (issue 42, item 3): a part turned by θ about Z (as transform_group
// turns it) shows a heading exactly θ more; the dial's turn is the shortest way, snapped to 15°;
// the radius holds every Gaussian's centre plus its mean half-alpha reach.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dialAngle, dialTurn, partCentroid, partHeading, partRadius, wrapDeg } from '../../../src/renderer/stores/part-view';
import { transformRecords } from '../../../src/shared/scene/transform';
import { eulerToQuat } from '../../../src/shared/math/quaternion';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const angle = fc.double({ min: -179, max: 179, noNaN: true });
const part = fc.array(fc.tuple(angle, fc.double({ min: -60, max: 60, noNaN: true }), angle, fc.double({ min: -0.5, max: 0.5, noNaN: true })), { minLength: 1, maxLength: 8 }).map((xs) =>
  xs.map(([a, b, c, x], i): GaussianRecord => ({ id: i, pos: [x, x / 2, 0.1], scale: [0.05, 0.03, 0.02], quat: eulerToQuat([a, b, c]), color: [1, 1, 1], opacity: 1, group: 'p' })),
);

describe('part view', () => {
  it('a turn of θ about Z changes the heading by exactly θ', () => {
    fc.assert(
      fc.property(part, angle, (recs, theta) => {
        const h = partHeading(recs);
        fc.pre(h !== null);
        const turned = transformRecords(recs, { rotateDeg: theta }).records;
        expect(Math.abs(wrapDeg((partHeading(turned) as number) - (h as number) - theta))).toBeLessThan(1e-6);
      }),
    );
  });

  it('reads a known heading: Gaussians whose X axes point along +Y have heading 90', () => {
    const recs: GaussianRecord[] = [0, 1].map((i) => ({ id: i, pos: [i * 0.1, 0, 0], scale: [0.1, 0.02, 0.02], quat: eulerToQuat([0, 0, 90]), color: [1, 1, 1], opacity: 1 }));
    expect(partHeading(recs)).toBeCloseTo(90, 9);
    expect(partCentroid(recs)).toEqual([0.05, 0, 0]);
    expect(partRadius(recs)).toBeCloseTo(0.05 + Math.sqrt(2 * Math.LN2) * Math.cbrt(0.1 * 0.02 * 0.02), 9);
    // An axis straight up has no heading.
    expect(partHeading([{ ...recs[0], quat: eulerToQuat([0, -90, 0]) }])).toBeNull();
  });

  it('the dial turns the shortest way, snapped to 15 degrees', () => {
    expect(dialAngle(10, 0)).toBe(0);
    expect(dialAngle(0, -10)).toBe(90);
    expect(dialTurn(170, -170, true)).toBe(15);
    expect(dialTurn(-75, -29, true)).toBe(45);
    expect(dialTurn(10, 31.234, false)).toBe(21.23);
    expect(dialTurn(0, 180, true)).toBe(180);
  });
});
