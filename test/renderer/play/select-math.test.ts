// Selection maths of the play view's tools: lasso (even-odd, concave), rectangle, brush along a
// stroke (the swept band), sphere containment, grow, invert and the Shift/Ctrl modes.
import { describe, expect, it } from 'vitest';
import { combine, grow, idsInBrush, idsInPolygon, idsInRect, idsInSphere, invert, modeOf, pointInPolygon, segmentDistance, selectionBounds } from '../../../src/renderer/viewport/select-math';

const pts = [
  { id: 0, x: 10, y: 10 },
  { id: 1, x: 50, y: 10 },
  { id: 2, x: 50, y: 50 },
  { id: 3, x: 90, y: 90 },
];

describe('selection maths', () => {
  it('tests points against a concave lasso with the even-odd rule', () => {
    // A "U": two arms joined at the bottom; the notch between the arms is outside.
    const u = [{ x: 0, y: 0 }, { x: 20, y: 0 }, { x: 20, y: 40 }, { x: 40, y: 40 }, { x: 40, y: 0 }, { x: 60, y: 0 }, { x: 60, y: 60 }, { x: 0, y: 60 }];
    expect(pointInPolygon({ x: 10, y: 10 }, u)).toBe(true);
    expect(pointInPolygon({ x: 30, y: 20 }, u)).toBe(false);
    expect(pointInPolygon({ x: 30, y: 50 }, u)).toBe(true);
    expect(pointInPolygon({ x: 70, y: 50 }, u)).toBe(false);
    expect(pointInPolygon({ x: 1, y: 1 }, u.slice(0, 2))).toBe(false);
    expect(idsInPolygon(pts, [{ x: 30, y: 0 }, { x: 60, y: 0 }, { x: 60, y: 60 }, { x: 30, y: 60 }])).toEqual([1, 2]);
  });

  it('selects in a rectangle from either corner', () => {
    expect(idsInRect(pts, { x: 60, y: 60 }, { x: 0, y: 0 })).toEqual([0, 1, 2]);
    expect(idsInRect(pts, { x: 45, y: 5 }, { x: 55, y: 55 })).toEqual([1, 2]);
  });

  it('paints the band a brush sweeps, not only its samples', () => {
    expect(segmentDistance({ x: 5, y: 3 }, { x: 0, y: 0 }, { x: 10, y: 0 })).toBeCloseTo(3);
    expect(segmentDistance({ x: -4, y: 3 }, { x: 0, y: 0 }, { x: 10, y: 0 })).toBeCloseTo(5);
    // Samples at x=0 and x=100 only: the stroke between them passes (50, 10) within 5 px.
    expect(idsInBrush(pts, [{ x: 0, y: 14 }, { x: 100, y: 14 }], 5)).toEqual([0, 1]);
    expect(idsInBrush(pts, [{ x: 52, y: 52 }], 3)).toEqual([2]);
    expect(idsInBrush(pts, [], 100)).toEqual([]);
  });

  it('keeps the centres inside a sphere, and grows by a distance', () => {
    const recs = [{ id: 0, pos: [0, 0, 0] }, { id: 1, pos: [0.3, 0, 0] }, { id: 2, pos: [0.6, 0, 0] }, { id: 3, pos: [0, 0, 1] }];
    expect(idsInSphere(recs, [0, 0, 0], 0.3)).toEqual([0, 1]);
    expect(grow(recs, [0], 0.35)).toEqual([0, 1]);
    expect(grow(recs, [0, 1], 0.35)).toEqual([0, 1, 2]);
    expect(grow(recs, [], 5)).toEqual([]);
  });

  it('inverts and combines with the SuperSplat modifiers', () => {
    expect(invert([0, 1, 2, 3], [1, 3])).toEqual([0, 2]);
    expect(modeOf({ shiftKey: false, ctrlKey: false })).toBe('set');
    expect(modeOf({ shiftKey: true, ctrlKey: false })).toBe('add');
    expect(modeOf({ shiftKey: true, ctrlKey: true })).toBe('remove');
    expect(modeOf({ shiftKey: false, ctrlKey: false, metaKey: true })).toBe('remove');
    expect(combine([1, 2], [2, 3], 'set')).toEqual([2, 3]);
    expect(combine([1, 2], [2, 3], 'add')).toEqual([1, 2, 3]);
    expect(combine([1, 2], [2, 3], 'remove')).toEqual([1]);
  });

  it('bounds the outlines of a selection', () => {
    expect(selectionBounds([])).toBeNull();
    expect(selectionBounds([{ pos: [0, 0, 0], scale: [0.1, 0.05, 0.05] }, { pos: [1, 0, 0], scale: [0.05, 0.05, 0.05] }])).toEqual({ min: [-0.2, -0.2, -0.2], max: [1.1, 0.2, 0.2] });
  });
});
