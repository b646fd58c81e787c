// Drawing primitives: segment clipping and anti-aliased lines that stay on their segment.
import { describe, expect, it } from 'vitest';
import { blit, clipSegment, cloneRgb, drawLine, fillRect } from '../../../src/shared/image/draw';
import { createRgb } from '../../../src/shared/image/image';

describe('clipSegment', () => {
  it('clips to the rectangle and rejects outside segments', () => {
    expect(clipSegment(-10, 5, 20, 5, 0, 0, 10, 10)).toEqual([0, 5, 10, 5]);
    expect(clipSegment(-10, -10, -5, -5, 0, 0, 10, 10)).toBeNull();
    expect(clipSegment(2, 2, 3, 3, 0, 0, 10, 10)).toEqual([2, 2, 3, 3]);
    const far = clipSegment(-1e9, 5, 1e9, 5, 0, 0, 10, 10);
    expect(far?.[0]).toBeCloseTo(0, 6);
    expect(far?.[2]).toBeCloseTo(10, 6);
  });
});

describe('drawLine', () => {
  it('darkens pixels on the segment and leaves far pixels alone', () => {
    const img = createRgb(20, 20);
    drawLine(img, 2, 10.5, 18, 10.5, [0, 0, 0], 1);
    const at = (x: number, y: number): number => img.data[(y * 20 + x) * 3];
    expect(at(10, 10)).toBe(0);
    expect(at(10, 13)).toBe(1);
    expect(at(0, 10)).toBe(1);
    const before = cloneRgb(img);
    drawLine(img, -1e6, -1e6, 1e6, -1e6, [0, 0, 0], 2);
    expect(img.data).toEqual(before.data);
  });

  it('fillRect and blit clip to the image', () => {
    const img = createRgb(4, 4);
    fillRect(img, 2, 2, 10, 10, [0, 0, 0]);
    expect(img.data[(3 * 4 + 3) * 3]).toBe(0);
    expect(img.data[(1 * 4 + 1) * 3]).toBe(1);
    const dst = createRgb(4, 4);
    blit(dst, img, -2, -2);
    expect(dst.data[0]).toBe(0);
    expect(dst.data[(3 * 4 + 3) * 3]).toBe(1);
  });
});
