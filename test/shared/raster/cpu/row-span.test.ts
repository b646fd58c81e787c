// rowSpan (src/shared/raster/cpu/camera-math.ts), the per-row shortcut of the compositing walks:
// every pixel of the row outside the span it returns has alpha < 1/255 (computed exactly as the
// walks compute it), on random positive-definite conics, opacities down to 1/255 and rows across
// the whole box; the span really is narrower than the row for elongated, rotated ellipses; a
// conic that is not positive definite keeps the whole row.
import { describe, expect, it } from 'vitest';
import { ALPHA_THRESHOLD, rowSpan } from '../../../../src/shared/raster/cpu/camera-math';
import { mulberry32 } from '../../../../src/shared/math/random';

const rawAlpha = (o: number, a: number, b: number, c: number, dx: number, dy: number): number => o * Math.exp(-0.5 * (a * dx * dx + 2 * b * dx * dy + c * dy * dy));

describe('rowSpan', () => {
  it('leaves out only pixels whose alpha is below 1/255', () => {
    const rng = mulberry32(7);
    const span = new Int32Array(2);
    let skipped = 0;
    let row = 0;
    let wrong = 0;
    for (let trial = 0; trial < 400; trial++) {
      // Conic of a rotated ellipse with sigmas 0.3 .. 12 px.
      const s1 = 0.3 + 12 * rng.next();
      const s2 = 0.3 + 12 * rng.next();
      const th = Math.PI * rng.next();
      const [cs, sn] = [Math.cos(th), Math.sin(th)];
      const a = (cs * cs) / (s1 * s1) + (sn * sn) / (s2 * s2);
      const b = cs * sn * (1 / (s1 * s1) - 1 / (s2 * s2));
      const c = (sn * sn) / (s1 * s1) + (cs * cs) / (s2 * s2);
      const o = ALPHA_THRESHOLD * (1 + 300 * rng.next() ** 3);
      const mx = 64 * rng.next();
      const my = 64 * rng.next();
      for (let py = 0; py < 64; py++) {
        const dy = py + 0.5 - my;
        rowSpan(a, b, c, o, mx, dy, 0, 63, span);
        row++;
        for (let px = 0; px < 64; px++) {
          if (px >= span[0] && px <= span[1]) continue;
          skipped++;
          if (!(Math.min(0.99, rawAlpha(o, a, b, c, px + 0.5 - mx, dy)) < ALPHA_THRESHOLD)) wrong++;
        }
      }
    }
    expect(wrong).toBe(0);
    // The shortcut does skip: a large share of the 64-pixel rows lies outside the ellipses.
    expect(skipped / (row * 64)).toBeGreaterThan(0.3);
  });

  it('keeps the whole row for a conic that is not positive definite', () => {
    const span = new Int32Array(2);
    rowSpan(1, 2, 1, 0.5, 10, 3, 0, 40, span);
    expect([...span]).toEqual([0, 40]);
    rowSpan(0.1, 0, 0.1, Number.NaN, 10, 3, 0, 40, span);
    expect([...span]).toEqual([0, 40]);
  });
});
