// Per-pixel maps and tile occupancy against the definitions: the count map equals the number of
// contributors traceContributors lists (and the depth map its first contributor's depth) at
// sampled pixels of seeded random scenes; tile occupancy equals a brute-force count of Gaussians
// whose visited pixel box shares a pixel with each tile; overdraw against a brute-force walk.
import { describe, expect, it } from 'vitest';
import { pixelMaps, finiteRange } from '../../../src/shared/debug/maps';
import { tileOccupancy, TILE_SIZE } from '../../../src/shared/debug/tiles';
import { overdrawMap } from '../../../src/shared/debug/overdraw';
import { mulberry32 } from '../../../src/shared/math/random';
import { pixelRange, rasterizeForwardState, tracePixel } from '../../../src/shared/raster/cpu';
import { randomCamera, randomSplats } from '../raster/cpu/random-scene';

describe('pixelMaps', () => {
  it('counts exactly the traced contributors and takes the first one\'s depth', () => {
    for (const seed of [1, 2, 3]) {
      const rng = mulberry32(seed);
      const camera = randomCamera(rng, 40);
      // Opaque, large Gaussians make the 1e-4 stop happen, so the stop path is covered too.
      const splats = randomSplats(rng, 60, camera, seed === 3 ? { scaleRange: [0.3, 0.6], opacityRange: [0.999, 1] } : { nearFraction: 0.1 });
      const state = rasterizeForwardState(splats, camera);
      const maps = pixelMaps(state);
      let nonEmpty = 0;
      let stopped = 0;
      for (let i = 0; i < 120; i++) {
        const x = rng.int(camera.width);
        const y = rng.int(camera.height);
        const trace = tracePixel(splats, camera, x, y);
        const p = y * camera.width + x;
        expect(maps.count[p]).toBe(trace.contributors.length);
        if (trace.contributors.length) {
          nonEmpty += 1;
          expect(maps.firstIndex[p]).toBe(trace.contributors[0].index);
          expect(maps.firstDepth[p]).toBe(trace.contributors[0].depth);
        } else {
          expect(maps.firstIndex[p]).toBe(-1);
          expect(maps.firstDepth[p]).toBeNaN();
        }
        if (trace.stoppedBy >= 0) stopped += 1;
      }
      expect(nonEmpty).toBeGreaterThan(10);
      if (seed === 3) expect(stopped).toBeGreaterThan(0);
    }
  });

  it('finiteRange skips NaN and says null when nothing is finite', () => {
    expect(finiteRange([NaN, 3, -1, NaN, 2])).toEqual({ min: -1, max: 3 });
    expect(finiteRange([NaN, NaN])).toBeNull();
  });
});

describe('tileOccupancy', () => {
  it('matches a brute-force count over tiles and Gaussians (image not a multiple of the tile)', () => {
    const rng = mulberry32(7);
    const camera = { ...randomCamera(rng, 50), width: 50, height: 37 };
    const splats = randomSplats(rng, 80, camera, { nearFraction: 0.1 });
    const { projection } = rasterizeForwardState(splats, camera);
    const occ = tileOccupancy(projection, camera.width, camera.height);
    expect([occ.tilesX, occ.tilesY]).toEqual([4, 3]);
    let total = 0;
    for (let ty = 0; ty < occ.tilesY; ty++) {
      for (let tx = 0; tx < occ.tilesX; tx++) {
        let n = 0;
        for (let g = 0; g < splats.count; g++) {
          if (projection.radii[g * 2] === 0) continue;
          const box = pixelRange(projection.means2d[g * 2], projection.means2d[g * 2 + 1], projection.radii[g * 2], projection.radii[g * 2 + 1], camera.width, camera.height);
          let touches = false;
          for (let y = ty * TILE_SIZE; y < Math.min(camera.height, (ty + 1) * TILE_SIZE) && !touches; y++) {
            for (let x = tx * TILE_SIZE; x < Math.min(camera.width, (tx + 1) * TILE_SIZE); x++) {
              if (x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1) {
                touches = true;
                break;
              }
            }
          }
          if (touches) n += 1;
        }
        expect(occ.counts[ty * occ.tilesX + tx]).toBe(n);
        total += n;
      }
    }
    expect(occ.total).toBe(total);
    expect(total).toBeGreaterThan(0);
  });
});

describe('overdrawMap', () => {
  it('counts at least every contributor, and exactly the box visits up to the stop', () => {
    const rng = mulberry32(8);
    const camera = randomCamera(rng, 30);
    const splats = randomSplats(rng, 60, camera, { scaleRange: [0.05, 0.4] });
    const state = rasterizeForwardState(splats, camera);
    const od = overdrawMap(state);
    const maps = pixelMaps(state);
    let more = 0;
    for (let p = 0; p < od.counts.length; p++) {
      expect(od.counts[p]).toBeGreaterThanOrEqual(maps.count[p]);
      if (od.counts[p] > maps.count[p]) more++;
    }
    expect(more).toBeGreaterThan(0);
    // Brute force at a few pixels: Gaussians in depth order whose box holds the pixel, to the stop.
    for (const [x, y] of [[15, 15], [3, 27], [22, 8]]) {
      let n = 0;
      let t = 1;
      for (const g of state.order) {
        const pr = state.projection;
        const box = pixelRange(pr.means2d[g * 2], pr.means2d[g * 2 + 1], pr.radii[g * 2], pr.radii[g * 2 + 1], 30, 30);
        if (x < box.x0 || x > box.x1 || y < box.y0 || y > box.y1) continue;
        n++;
        const dx = x + 0.5 - pr.means2d[g * 2];
        const dy = y + 0.5 - pr.means2d[g * 2 + 1];
        const alpha = Math.min(0.99, splats.opacities[g] * Math.exp(-0.5 * (pr.conics[g * 3] * dx * dx + 2 * pr.conics[g * 3 + 1] * dx * dy + pr.conics[g * 3 + 2] * dy * dy)));
        if (alpha < 1 / 255) continue;
        if (t * (1 - alpha) <= 1e-4) break;
        t *= 1 - alpha;
      }
      expect(od.counts[y * 30 + x]).toBe(n);
    }
  });
});
