// The shade tool's colours (issue 42, item 4): strength 0 changes nothing; darkening by height
// leaves the top and darkens the bottom by the strength; facing the light keeps the lit side;
// a gradient runs from one colour to the other along its axis; every colour stays in [0, 1].
import { describe, expect, it } from 'vitest';
import { lightDirection, shadeColors } from '../../../src/renderer/stores/shade';
import type { GaussianRecord } from '../../../src/shared/scene/gaussian';

const at = (id: number, pos: [number, number, number]): GaussianRecord => ({ id, pos, scale: [0.05, 0.05, 0.05], quat: [1, 0, 0, 0], color: [0.8, 0.6, 0.4], opacity: 1 });
const column = [at(0, [0, 0, -0.2]), at(1, [0, 0, 0]), at(2, [0, 0, 0.2])];

describe('shade tool', () => {
  it('darkens by height: bottom by the strength, top untouched; strength 0 is no change', () => {
    const c = shadeColors(column, { kind: 'height', mode: 'darken', strength: 0.5, axis: 2 });
    expect(c[2].color).toEqual([0.8, 0.6, 0.4]);
    expect(c[0].color).toEqual([0.4, 0.3, 0.2]);
    expect(c[1].color).toEqual([0.6, 0.45, 0.3]);
    expect(shadeColors(column, { kind: 'height', mode: 'darken', strength: 0, axis: 2 }).map((x) => x.color)).toEqual(column.map((r) => r.color));
  });

  it('lightens towards the light and never leaves [0, 1]', () => {
    const ring = [at(0, [0.2, 0, 0]), at(1, [-0.2, 0, 0]), at(2, [0, 0.2, 0]), at(3, [0, -0.2, 0])];
    const c = shadeColors(ring, { kind: 'facing', mode: 'lighten', strength: 1, azimuthDeg: 0, elevationDeg: 0 });
    expect(c[0].color).toEqual([1, 1, 1]); // faces the light (+X)
    expect(c[1].color).toEqual([0.8, 0.6, 0.4]); // faces away: unchanged
    const d = shadeColors(ring, { kind: 'facing', mode: 'darken', strength: 1, azimuthDeg: 0, elevationDeg: 0 });
    expect(d[1].color).toEqual([0, 0, 0]);
    expect(d[0].color).toEqual([0.8, 0.6, 0.4]);
    for (const x of [...c, ...d]) for (const v of x.color) expect(v >= 0 && v <= 1).toBe(true);
    expect(lightDirection(90, 0)[1]).toBeCloseTo(1, 12);
  });

  it('a gradient runs from one colour to the other along the axis', () => {
    const c = shadeColors(column, { kind: 'gradient', from: [0, 0, 1], to: [1, 0, 0], axis: 2 });
    expect(c.map((x) => x.color)).toEqual([[0, 0, 1], [0.5, 0, 0.5], [1, 0, 0]]);
  });
});
