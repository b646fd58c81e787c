// The orientation overlay: cube edges land where the camera projects them, the axis marker has
// its colours, the input is untouched and odd cameras are safe.
import { describe, expect, it } from 'vitest';
import { orbitCamera } from '../../../src/shared/camera/orbit';
import { createRgb, type RgbImage } from '../../../src/shared/image/image';
import { cubeEdges, drawOverlay, projectSegment, toCamera } from '../../../src/shared/image/overlay';

const px = (img: RgbImage, x: number, y: number): number[] => {
  const o = (Math.floor(y) * img.width + Math.floor(x)) * 3;
  return [img.data[o], img.data[o + 1], img.data[o + 2]];
};

describe('drawOverlay', () => {
  const camera = orbitCamera({ azimuth: 30, elevation: 20, width: 128, height: 128 });

  it('has 12 distinct unit-cube edges', () => {
    const edges = cubeEdges();
    expect(edges).toHaveLength(12);
    for (const [a, b] of edges) {
      const diff = a.map((v, k) => Math.abs(v - b[k]));
      expect(diff.filter((d) => d === 2)).toHaveLength(1);
      expect(diff.filter((d) => d === 0)).toHaveLength(2);
    }
  });

  it('draws grey on projected edge midpoints and leaves the input unchanged', () => {
    const base = createRgb(128, 128);
    const out = drawOverlay(base, camera);
    expect(base.data.every((v) => v === 1)).toBe(true);
    // Top edges are not crossed by the axis marker at the bottom corner.
    const top = cubeEdges().filter(([a, b]) => a[2] === 1 && b[2] === 1);
    for (const [a, b] of top) {
      const seg = projectSegment(camera, a, b);
      expect(seg).not.toBeNull();
      const [x0, y0, x1, y1] = seg as number[];
      const [r, g, bl] = px(out, (x0 + x1) / 2, (y0 + y1) / 2);
      expect(r).toBeLessThan(0.8);
      expect(Math.abs(r - g)).toBeLessThan(1e-6);
      expect(Math.abs(r - bl)).toBeLessThan(1e-6);
    }
    expect(px(out, 1, 1)).toEqual([1, 1, 1]);
  });

  it('draws the X axis red, Y green and Z blue from corner (-1, -1, -1)', () => {
    const out = drawOverlay(createRgb(128, 128), camera);
    const colourAt = (tip: [number, number, number]): number[] => {
      const seg = projectSegment(camera, [-1, -1, -1], tip) as number[];
      const t = 0.6; // along the marker, away from the cube edges it starts on
      return px(out, seg[0] + t * (seg[2] - seg[0]), seg[1] + t * (seg[3] - seg[1]));
    };
    const red = colourAt([-0.4, -1, -1]);
    const green = colourAt([-1, -0.4, -1]);
    const blue = colourAt([-1, -1, -0.4]);
    expect(red[0]).toBeGreaterThan(red[1] + 0.3);
    expect(green[1]).toBeGreaterThan(green[0] + 0.3);
    expect(blue[2]).toBeGreaterThan(blue[0] + 0.3);
  });

  it('clips edges behind the camera (camera inside the cube)', () => {
    const inside = orbitCamera({ azimuth: 10, elevation: 10, distance: 0.5, width: 64, height: 64 });
    expect(toCamera(inside, [0, 0, 0])[2]).toBeCloseTo(0.5, 12);
    const seg = projectSegment(inside, [2, 0, 0], [-2, 0, 0]);
    expect(seg).not.toBeNull();
    expect(projectSegment(inside, [5, 5, 5], [5, 5, 6])).toBeNull();
    const out = drawOverlay(createRgb(64, 64), inside);
    expect(out.data.every((v) => Number.isFinite(v) && v >= 0 && v <= 1)).toBe(true);
  });

  it('scales with an image larger than the camera', () => {
    const big = drawOverlay(createRgb(256, 256), camera);
    const seg = projectSegment(camera, [-1, 1, 1], [1, 1, 1]) as number[];
    expect(px(big, ((seg[0] + seg[2]) / 2) * 2, ((seg[1] + seg[3]) / 2) * 2)[0]).toBeLessThan(0.8);
  });
});
