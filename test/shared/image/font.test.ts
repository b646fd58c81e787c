// The built-in bitmap font: coverage of the characters labels use, exact placement, wrapping.
import { describe, expect, it } from 'vitest';
import { CELL_H, CELL_W, drawText, hasGlyph, textHeight, textWidth, wrapText } from '../../../src/shared/image/font';
import { createRgb, type RgbImage } from '../../../src/shared/image/image';

function inked(img: RgbImage): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) if (img.data[(y * img.width + x) * 3] < 0.5) out.push({ x, y });
  return out;
}

describe('font', () => {
  it('has a glyph for every printable ASCII character and the degree sign', () => {
    for (let c = 32; c < 127; c++) expect(hasGlyph(String.fromCharCode(c)), String.fromCharCode(c)).toBe(true);
    expect(hasGlyph('°')).toBe(true);
  });

  it('draws inside the measured box, scaled, and clips at the edges', () => {
    const img = createRgb(80, 40);
    drawText(img, 3, 4, 'V0 az 0°\nelg', [0, 0, 0], 2);
    const px = inked(img);
    expect(px.length).toBeGreaterThan(50);
    const w = textWidth('V0 az 0°\nelg', 2);
    const h = textHeight('V0 az 0°\nelg', 2);
    expect(w).toBe((8 * CELL_W - 1) * 2);
    expect(h).toBe((2 * CELL_H - 1) * 2);
    for (const p of px) {
      expect(p.x).toBeGreaterThanOrEqual(3);
      expect(p.x).toBeLessThan(3 + w);
      expect(p.y).toBeGreaterThanOrEqual(4);
      expect(p.y).toBeLessThan(4 + h);
    }
    // 'g' descends below the baseline row of capitals.
    const small = createRgb(10, 12);
    drawText(small, 0, 0, 'g', [0, 0, 0]);
    expect(Math.max(...inked(small).map((p) => p.y))).toBe(8);
    expect(() => drawText(createRgb(4, 4), -10, -10, 'WWW', [0, 0, 0], 3)).not.toThrow();
  });

  it('draws different characters differently and unknown ones as a box', () => {
    const a = createRgb(6, 9);
    const b = createRgb(6, 9);
    drawText(a, 0, 0, 'V', [0, 0, 0]);
    drawText(b, 0, 0, 'U', [0, 0, 0]);
    expect(Array.from(a.data)).not.toEqual(Array.from(b.data));
    const box = createRgb(6, 9);
    drawText(box, 0, 0, '☃', [0, 0, 0]);
    expect(inked(box)).toHaveLength(20);
  });

  it('wraps at comma phrases, then words, then characters', () => {
    expect(wrapText('azimuth 45, elevation 30', 21 * CELL_W - 1)).toBe('azimuth 45,\nelevation 30');
    expect(wrapText('PSNR 18.62 dB SSIM 0.843', 13 * CELL_W - 1)).toBe('PSNR 18.62 dB\nSSIM 0.843');
    expect(wrapText('abcdefghij', 4 * CELL_W - 1)).toBe('abcd\nefgh\nij');
    expect(wrapText('short', 100)).toBe('short');
  });
});
