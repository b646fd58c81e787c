import { describe, expect, it } from 'vitest';
import { parseColor, rgbToHex } from '../../../src/shared/math/color';
import { fromCompact, packSplats, toCompact, type GaussianRecord } from '../../../src/shared/scene/gaussian';

const rec: GaussianRecord = {
  id: 8,
  pos: [-0.68, -0.408, 0.155],
  scale: [0.075, 0.075, 0.025],
  quat: [1, 0, 0, 0],
  color: [0.502, 0.369, 0.192],
  opacity: 1,
  group: 'top',
};

describe('Gaussian records', () => {
  it('round-trips through the compact trajectory form', () => {
    const c = toCompact(rec);
    expect(c).toEqual({ id: 8, p: [-0.68, -0.408, 0.155], s: [0.075, 0.075, 0.025], q: [1, 0, 0, 0], c: [0.502, 0.369, 0.192], o: 1, g: 'top' });
    expect(fromCompact(c)).toEqual(rec);
    const { group: _group, ...ungrouped } = rec;
    expect('g' in toCompact(ungrouped)).toBe(false);
    expect(fromCompact({ p: [0, 0, 0], s: [1, 1, 1], q: [1, 0, 0, 0], c: [0, 0, 0], o: 1 }, 5).id).toBe(5);
  });

  it('packs records in order into Splats of the requested precision', () => {
    const other: GaussianRecord = { ...rec, id: 9, pos: [1, 2, 3], quat: [0, 0, 0, 1], opacity: 0.5 };
    const s = packSplats([rec, other], 'f64');
    expect(s.count).toBe(2);
    expect(s.means).toBeInstanceOf(Float64Array);
    expect(Array.from(s.means)).toEqual([-0.68, -0.408, 0.155, 1, 2, 3]);
    expect(Array.from(s.quats)).toEqual([1, 0, 0, 0, 0, 0, 0, 1]);
    expect(Array.from(s.opacities)).toEqual([1, 0.5]);
    expect(packSplats([rec]).means).toBeInstanceOf(Float32Array);
  });
});

describe('parseColor', () => {
  it('reads #rrggbb and [r, g, b]', () => {
    expect(parseColor('#ff8000')).toEqual({ ok: true, rgb: [1, 128 / 255, 0] });
    expect(parseColor(' #FF8000 ')).toEqual({ ok: true, rgb: [1, 128 / 255, 0] });
    expect(parseColor([0.1, 0.2, 0.3])).toEqual({ ok: true, rgb: [0.1, 0.2, 0.3] });
    expect(rgbToHex([1, 128 / 255, 0])).toBe('#ff8000');
  });

  it("rejects anything else with the seed's message", () => {
    expect(parseColor('#cacc cb')).toEqual({ ok: false, error: "unknown color '#cacc cb' (use '#rrggbb' or [r,g,b])" });
    expect(parseColor('red')).toEqual({ ok: false, error: "unknown color 'red' (use '#rrggbb' or [r,g,b])" });
    expect(parseColor([1.2, 0, 0])).toEqual({ ok: false, error: "unknown color [1.2,0,0] (use '#rrggbb' or [r,g,b])" });
    expect(parseColor([0, 0])).toMatchObject({ ok: false });
    expect(parseColor('#fff')).toMatchObject({ ok: false });
    expect(parseColor(Number.NaN)).toMatchObject({ ok: false });
  });
});
