// The debugger's drawing: colour map order and ends, heat-map value mapping, enlargement, the
// captioned figure, tile grid image, overlay clipping, and gradient summaries (magnitudes and the
// image-plane direction of a mean's motion against a finite difference of its projection).
import { describe, expect, it } from 'vitest';
import { heat, luminance, NO_DATA } from '../../../src/shared/debug/colormap';
import { displayScale, figure, formatValue, upscale } from '../../../src/shared/debug/figure';
import { gradientMagnitudes, projectDirections } from '../../../src/shared/debug/gradients';
import { heatImage, rangePosition, tileImage } from '../../../src/shared/debug/heatmap';
import { drawArrow, drawDisc, drawEllipse, drawPixelMarker } from '../../../src/shared/debug/overlays';
import { createRgb } from '../../../src/shared/image/image';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { emptySplats } from '../../../src/shared/scene/splats';
import type { SplatGrads } from '../../../src/shared/raster/types';

describe('colour map', () => {
  it('rises in luminance from end to end and greys NaN', () => {
    let last = -1;
    for (let i = 0; i <= 100; i++) {
      const l = luminance(heat(i / 100));
      expect(l).toBeGreaterThan(last);
      last = l;
    }
    expect(heat(-5)).toEqual(heat(0));
    expect(heat(7)).toEqual(heat(1));
    expect(heat(NaN)).toBe(NO_DATA);
  });

  it('maps values on linear and log ranges', () => {
    expect(rangePosition(5, { min: 0, max: 10 })).toBe(0.5);
    expect(rangePosition(10, { min: 1, max: 100, log: true })).toBeCloseTo(0.5, 12);
    expect(rangePosition(0, { min: 1, max: 100, log: true })).toBe(0);
    expect(rangePosition(3, { min: 3, max: 3 })).toBe(1);
    const img = heatImage([0, 10, NaN, 5], 2, 2, { min: 0, max: 10 }, [1, 1, 1]);
    expect(Array.from(img.data.slice(0, 3))).toEqual(heat(0).map(Math.fround));
    expect(Array.from(img.data.slice(3, 6))).toEqual(heat(1).map(Math.fround));
    expect(Array.from(img.data.slice(6, 9))).toEqual([1, 1, 1]);
  });
});

describe('figures', () => {
  it('enlarges by an integer factor with every source pixel a block', () => {
    expect(displayScale(32, 32)).toBe(16);
    expect(displayScale(256, 256)).toBe(2);
    expect(displayScale(1024, 768)).toBe(1);
    const src = createRgb(2, 1, 0);
    src.data[3] = 1;
    const big = upscale(src, 3);
    expect([big.width, big.height]).toEqual([6, 3]);
    expect(big.data[(2 * 6 + 4) * 3]).toBe(1);
    expect(big.data[(2 * 6 + 2) * 3]).toBe(0);
  });

  it('adds a caption strip below the image and keeps the image on top', () => {
    const img = createRgb(64, 64, 0.25);
    const plain = figure(img, 'Title');
    const withLegend = figure(img, 'Title', { min: 0, max: 12, label: 'count', none: 'no contributor' });
    expect(plain.width).toBe(64);
    expect(withLegend.height).toBeGreaterThan(plain.height);
    expect(withLegend.data[(63 * 64 + 10) * 3]).toBeCloseTo(0.25, 6);
    expect(formatValue(12)).toBe('12');
    expect(formatValue(0.000123456)).toBe('1.23e-4');
    expect(formatValue(3.14159)).toBe('3.14');
  });

  it('draws the tile grid and counts at the enlarged size', () => {
    const occ = { tile: 16, tilesX: 2, tilesY: 1, counts: Int32Array.from([0, 7]), total: 7 };
    const img = tileImage(occ, 32, 16, 7, 2);
    expect([img.width, img.height]).toEqual([64, 32]);
    const at = (x: number, y: number) => Array.from(img.data.slice((y * 64 + x) * 3, (y * 64 + x) * 3 + 3));
    expect(at(2, 2)).toEqual(heat(0).map(Math.fround));
    expect(at(62, 2)).toEqual(heat(1).map(Math.fround));
  });

  it('clips every overlay to the image, however far off it is', () => {
    const img = createRgb(20, 20, 1);
    drawEllipse(img, 2, [1e6, -1e6], [1, 0, 1], [1, 0, 0]);
    drawArrow(img, 2, -50, 5, 1e4, 3, [1, 0, 0]);
    drawDisc(img, 2, 9, 9, 4, [0, 0, 1]);
    drawPixelMarker(img, 2, 0, 0, [0, 1, 0]);
    expect(img.data.every((v) => v >= 0 && v <= 1)).toBe(true);
    expect(img.data[(18 * 20 + 18) * 3 + 2]).toBe(1);
    expect(img.data[(18 * 20 + 18) * 3]).toBeLessThan(1);
  });
});

describe('gradient summaries', () => {
  it('magnitudes are row norms of the chosen parameter', () => {
    const grads: SplatGrads = {
      v_means: Float64Array.from([3, 4, 0, 0, 0, 0]),
      v_scales: new Float64Array(6),
      v_quats: Float64Array.from([1, 1, 1, 1, 0, 0, 0, 2]),
      v_colors: new Float64Array(6),
      v_opacities: Float64Array.from([-0.5, 0.25]),
    };
    expect(Array.from(gradientMagnitudes(grads, 'means'))).toEqual([5, 0]);
    expect(Array.from(gradientMagnitudes(grads, 'quats'))).toEqual([2, 2]);
    expect(Array.from(gradientMagnitudes(grads, 'opacities'))).toEqual([0.5, 0.25]);
  });

  it('projects a 3D motion to the image plane as the derivative of the projected mean', () => {
    const camera = orbitCamera({ azimuth: 35, elevation: 25, width: 64, height: 48 });
    const s = emptySplats(2, 'f64');
    s.means.set([0.3, -0.2, 0.4, -0.5, 0.6, -0.1]);
    const v = [0.2, -0.7, 0.4, -0.3, 0.1, 0.9];
    const dirs = projectDirections(s, camera, v);
    const m = camera.world_to_camera;
    const proj = (p: number[]): [number, number] => {
      const x = m[0] * p[0] + m[1] * p[1] + m[2] * p[2] + m[3];
      const y = m[4] * p[0] + m[5] * p[1] + m[6] * p[2] + m[7];
      const z = m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
      return [camera.fx * (x / z) + camera.cx, camera.fy * (y / z) + camera.cy];
    };
    const h = 1e-6;
    for (let i = 0; i < 2; i++) {
      const p = [0, 1, 2].map((k) => s.means[i * 3 + k]);
      const a = proj(p.map((c, k) => c + h * v[i * 3 + k]));
      const b = proj(p.map((c, k) => c - h * v[i * 3 + k]));
      expect(dirs[i * 2]).toBeCloseTo((a[0] - b[0]) / (2 * h), 4);
      expect(dirs[i * 2 + 1]).toBeCloseTo((a[1] - b[1]) / (2 * h), 4);
    }
  });
});
