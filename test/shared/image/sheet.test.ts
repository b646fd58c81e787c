// Contact sheets and difference images: layout arithmetic, tiles copied verbatim, labels inked.
import { describe, expect, it } from 'vitest';
import { DIFFERENCE_GAIN, differenceImage } from '../../../src/shared/image/difference';
import { textHeight } from '../../../src/shared/image/font';
import { createRgb } from '../../../src/shared/image/image';
import { contactSheet } from '../../../src/shared/image/sheet';

describe('contactSheet', () => {
  it('lays tiles out in a grid with a label band and copies each tile', () => {
    const tiles = [0.1, 0.3, 0.5, 0.7, 0.9].map((v, i) => ({ image: createRgb(40, 30, v), label: `T${i}` }));
    const sheet = contactSheet(tiles, 2, { gap: 4, fontScale: 1 });
    const labelH = textHeight('T0', 1) + 6;
    expect(sheet.width).toBe(2 * 40 + 3 * 4);
    expect(sheet.height).toBe(3 * (30 + labelH) + 4 * 4);
    // Tile 3 sits in row 1, column 1: check its centre pixel.
    const x = 4 + 44 + 20;
    const y = 4 + (30 + labelH + 4) + labelH + 15;
    expect(sheet.data[(y * sheet.width + x) * 3]).toBeCloseTo(0.7, 6);
    // The label band of tile 0 contains black ink.
    let ink = 0;
    for (let yy = 4; yy < 4 + labelH; yy++) for (let xx = 4; xx < 44; xx++) if (sheet.data[(yy * sheet.width + xx) * 3] === 0) ink++;
    expect(ink).toBeGreaterThan(10);
  });

  it('grows the label band for wrapped labels and refuses an empty sheet', () => {
    const one = contactSheet([{ image: createRgb(72, 10), label: 'a' }], 1, { fontScale: 1 });
    const three = contactSheet([{ image: createRgb(72, 10), label: 'aaaaaaaaaa bbbbbbbbbb cccccccccc' }], 1, { fontScale: 1 });
    expect(three.height - one.height).toBe(2 * 10);
    expect(() => contactSheet([], 3)).toThrow('no tiles');
  });
});

describe('differenceImage', () => {
  it('is black for equal images and amplifies and clips differences', () => {
    const a = createRgb(2, 1, 0.5);
    expect(Array.from(differenceImage(a, a).data)).toEqual([0, 0, 0, 0, 0, 0]);
    const b = createRgb(2, 1, 0.5);
    b.data[0] = 0.55;
    b.data[3] = 0;
    const d = differenceImage(a, b);
    expect(d.data[0]).toBeCloseTo(0.05 * DIFFERENCE_GAIN, 6);
    expect(d.data[3]).toBe(1);
    expect(() => differenceImage(a, createRgb(1, 1))).toThrow('sizes differ');
  });
});
