// The tile-binned CPU rasterizer against the dense reference (parity at 1e-5, flat and SH
// degrees 1-3, antialiased, odd image sizes, Gaussians at the near plane), its binning, the radix
// sorts against comparator sorts, and the kernels' self-containment (the worker driver ships
// them as source text, so they must run with no module scope).
import { describe, expect, it } from 'vitest';
import { depthOrder, projectForward, rasterizeForwardDense } from '../../../../src/shared/raster/cpu';
import {
  allocTileFrame,
  binTiles,
  compositeTileRange,
  frameRows,
  packTileCamera,
  projectTileRange,
  rasterizeTiles,
  tileInput,
} from '../../../../src/shared/raster/cpu/tiles';
import { depthOrderRadix, radixSortPairs } from '../../../../src/shared/raster/cpu/radix';
import { mulberry32 } from '../../../../src/shared/math/random';
import type { RasterOptions } from '../../../../src/shared/raster/types';
import { randomCamera, randomSplats, withRandomSh } from './random-scene';

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('rasterizeTiles', () => {
  const cases: Array<[string, number, number, 0 | 1 | 2 | 3, RasterOptions]> = [
    ['flat', 40, 37, 0, {}],
    ['SH degree 1', 60, 33, 1, {}],
    ['SH degree 2', 60, 48, 2, {}],
    ['SH degree 3', 80, 50, 3, {}],
    ['SH degree 3, antialiased', 80, 35, 3, { antialiased: true }],
    ['SH degree 3 capped at band 1', 50, 40, 3, { shDegree: 1 }],
  ];
  for (const [name, n, size, degree, opts] of cases) {
    it(`matches the dense reference at 1e-5: ${name}, ${n} Gaussians, ${size}px`, () => {
      const rng = mulberry32(size * 7 + degree);
      for (let trial = 0; trial < 2; trial++) {
        const cam = randomCamera(rng, size);
        const flat = randomSplats(rng, n, cam, { nearFraction: 0.1, scaleRange: [0.02, 0.5] });
        const s = degree === 0 ? flat : withRandomSh(rng, flat, degree, 0.5);
        const dense = rasterizeForwardDense(s, cam, opts);
        const tiled = rasterizeTiles(s, cam, opts);
        expect(maxDiff(tiled.rgb, dense.rgb)).toBeLessThanOrEqual(1e-5);
        expect(maxDiff(tiled.alpha, dense.alpha)).toBeLessThanOrEqual(1e-5);
        expect(dense.alpha.some((a) => a > 0.5)).toBe(true);
      }
    });
  }

  it('stops where the reference stops: opaque piles that reach the 1e-4 transmittance stop', () => {
    const rng = mulberry32(11);
    const cam = randomCamera(rng, 32);
    const s = withRandomSh(rng, randomSplats(rng, 150, cam, { opacityRange: [0.9, 1], scaleRange: [0.2, 0.6] }), 3);
    const dense = rasterizeForwardDense(s, cam);
    expect(dense.alpha.filter((a) => a > 1 - 1e-3).length).toBeGreaterThan(50);
    expect(maxDiff(rasterizeTiles(s, cam).rgb, dense.rgb)).toBeLessThanOrEqual(1e-5);
  });

  it('agrees on float32 input and on a non-square image', () => {
    const rng = mulberry32(12);
    const base = randomCamera(rng, 40);
    const cam = { ...base, width: 53, cx: base.cx + 6.5 };
    const s = withRandomSh(rng, randomSplats(rng, 60, cam, { precision: 'f32' }), 3);
    expect(maxDiff(rasterizeTiles(s, cam).rgb, rasterizeForwardDense(s, cam).rgb)).toBeLessThanOrEqual(1e-5);
  });

  it('bins every visible Gaussian into depth-ordered tile lists', () => {
    const rng = mulberry32(13);
    const cam = randomCamera(rng, 50);
    const s = randomSplats(rng, 200, cam);
    const input = tileInput(s);
    const f = allocTileFrame(input, cam.width, cam.height);
    projectTileRange(input, packTileCamera(cam), 0, s.count, f);
    const bins = binTiles(f);
    const ref = projectForward(s, cam);
    // Rows hold the visible Gaussians only, in index order: scattered back they are the reference's radii.
    const rows = frameRows(f);
    const radii = new Int32Array(s.count * 2);
    for (const r of rows) radii.set(f.radii.subarray(r * 2, r * 2 + 2), f.index[r] * 2);
    expect(Array.from(radii)).toEqual(Array.from(ref.radii));
    expect(Array.from(rows, (r) => f.index[r])).toEqual(Array.from({ length: s.count }, (_, i) => i).filter((i) => ref.radii[i * 2] > 0));
    expect(Array.from(bins.order, (r) => f.index[r])).toEqual(Array.from(depthOrder(ref.depths, (i) => ref.radii[i * 2] > 0, s.count)));
    const rank = new Map(Array.from(bins.order, (g, r) => [g, r]));
    for (let t = 0; t < f.tilesX * f.tilesY; t++) {
      for (let k = bins.offsets[t] + 1; k < bins.offsets[t + 1]; k++) expect(rank.get(bins.ids[k])).toBeGreaterThan(rank.get(bins.ids[k - 1]) as number);
    }
    expect(bins.ids.length).toBeGreaterThan(bins.order.length);
  });

  it('culls before the covariance only the Gaussians the exact test culls (most of them off a small crop)', () => {
    const rng = mulberry32(17);
    for (const opts of [{}, { antialiased: true }]) {
      const base = randomCamera(rng, 64);
      // A 12x10 crop of a 64px view: most Gaussians lie just off its edges, long and thin ones across them.
      const cam = { ...base, width: 12, height: 10, cx: base.cx - 26, cy: base.cy - 27 };
      const s = randomSplats(rng, 600, cam, { nearFraction: 0.05, scaleRange: [0.005, 0.3] });
      const input = tileInput(s, opts);
      const f = allocTileFrame(input, cam.width, cam.height);
      projectTileRange(input, packTileCamera(cam), 0, s.count, f);
      const ref = projectForward(s, cam, opts);
      const radii = new Int32Array(s.count * 2);
      for (const r of frameRows(f)) radii.set(f.radii.subarray(r * 2, r * 2 + 2), f.index[r] * 2);
      expect(Array.from(radii)).toEqual(Array.from(ref.radii));
      const kept = frameRows(f).length;
      expect(kept).toBeGreaterThan(20);
      expect(kept).toBeLessThan(s.count / 2);
    }
  });

  it('runs its kernels from their source text alone (what the worker threads receive)', () => {
    const rng = mulberry32(14);
    const cam = randomCamera(rng, 32);
    const s = withRandomSh(rng, randomSplats(rng, 40, cam), 2);
    const input = tileInput(s);
    const f = allocTileFrame(input, cam.width, cam.height);
    const project = new Function(`return (${projectTileRange.toString()});`)() as typeof projectTileRange;
    const composite = new Function(`return (${compositeTileRange.toString()});`)() as typeof compositeTileRange;
    project(input, packTileCamera(cam), 0, s.count, f);
    const rgb = new Float32Array(32 * 32 * 3);
    const alpha = new Float32Array(32 * 32);
    composite(f, binTiles(f), 0, f.tilesX * f.tilesY, rgb, alpha);
    expect(maxDiff(rgb, rasterizeForwardDense(s, cam).rgb)).toBeLessThanOrEqual(1e-5);
  });
});

describe('radix sorts', () => {
  it('radixSortPairs sorts stably like a comparator sort', () => {
    const rng = mulberry32(15);
    for (const bits of [4, 13, 32]) {
      const n = 3000;
      const keys = Uint32Array.from({ length: n }, () => Math.floor(rng.next() * 2 ** bits) % 2 ** Math.min(bits, 9));
      const values = Uint32Array.from({ length: n }, (_, i) => i);
      const out = radixSortPairs(keys, values, bits);
      const ref = Array.from(values).sort((a, b) => keys[a] - keys[b] || a - b);
      expect(Array.from(out.values)).toEqual(ref);
      expect(Array.from(out.keys)).toEqual(ref.map((i) => keys[i]));
    }
  });

  it('depthOrderRadix equals depthOrder, ties included', () => {
    const rng = mulberry32(16);
    const depth = Float64Array.from({ length: 5000 }, () => (rng.next() < 0.2 ? 1.5 : rng.uniform(0.01, 40)));
    const cand = Uint32Array.from({ length: 5000 }, (_, i) => i).filter((i) => i % 3 !== 0);
    const ref = depthOrder(depth, (i) => i % 3 !== 0, 5000);
    expect(Array.from(depthOrderRadix(depth, cand))).toEqual(Array.from(ref));
  });
});
