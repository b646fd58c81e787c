// The debugger's overdraw of a capture is the tile rasterizer's own (the stage split the CPU path
// renders captures with): per pixel, the Gaussians its compositor evaluates, which lie between the
// contributors (the 'count' view) and the reference's box overdraw; the view carries that frame's
// stage times (project, sort, bin, composite) in its stats and title.
import { describe, expect, it } from 'vitest';
import { DEBUG_SCENE_LIMIT } from '../../../src/shared/api/debug';
import { pixelMaps } from '../../../src/shared/debug/maps';
import { overdrawMap } from '../../../src/shared/debug/overdraw';
import { rasterizeForwardState } from '../../../src/shared/raster/cpu';
import { rasterizeTiles } from '../../../src/shared/raster/cpu/tiles';
import { drawView } from '../../../src/main/debug/draw';
import { roomCamera, roomScene } from '../../../src/main/raster/room-scene';
import type { JobContext } from '../../../src/main/workers/protocol';

const ctx: JobContext = { progress: () => undefined, transfer: () => undefined } as unknown as JobContext;

describe('capture overdraw on the tile rasterizer', () => {
  const scene = roomScene(DEBUG_SCENE_LIMIT + 3000, 3, 5);
  const camera = roomCamera(64, 30);

  it('counts, per pixel, at least the contributors and at most the reference box overdraw', () => {
    const evaluated = new Int32Array(64 * 64);
    const out = rasterizeTiles(scene, camera, { evaluated });
    const state = rasterizeForwardState(scene, camera);
    const box = overdrawMap(state).counts;
    const contributors = pixelMaps(state).count;
    let fewer = 0;
    for (let p = 0; p < evaluated.length; p++) {
      expect(evaluated[p]).toBeGreaterThanOrEqual(contributors[p]);
      expect(evaluated[p]).toBeLessThanOrEqual(box[p]);
      if (evaluated[p] < box[p]) fewer++;
    }
    // The row spans skip most of each box's misses, and the image is unchanged by counting.
    expect(fewer).toBeGreaterThan(evaluated.length / 4);
    expect(Array.from(out.rgb)).toEqual(Array.from(rasterizeTiles(scene, camera).rgb));
  });

  it('counts exactly the Gaussians evaluated before the stop: a pile of four opaque Gaussians stops at the third', () => {
    const pile = roomScene(4, 0, 1);
    for (let i = 0; i < 4; i++) {
      pile.means.set([0, 0, 2], i * 3);
      pile.scales.set([0.3, 0.3, 0.3], i * 3);
      pile.quats.set([1, 0, 0, 0], i * 4);
      pile.opacities[i] = 1;
    }
    const cam = roomCamera(32, 0);
    const evaluated = new Int32Array(32 * 32);
    rasterizeTiles(pile, cam, { evaluated });
    const centre = 16 * 32 + 16;
    // alpha about 0.96 each (the pixel centre is half a pixel off the means): T 0.04, 0.0016, then
    // below 1e-4 at the third, which is evaluated and stops the pixel; the fourth is not evaluated.
    expect(evaluated[centre]).toBe(3);
    expect(overdrawMap(rasterizeForwardState(pile, cam)).counts[centre]).toBe(3);
  });

  it("the debugger's overdraw view of a capture names the tile rasterizer and carries its stage times", () => {
    const { entry } = drawView({ splats: scene, camera, view: 'overdraw', k: 1, shDegree: 3 }, ctx);
    expect(entry.out.title).toMatch(/^Overdraw: Gaussians the tile rasterizer evaluates per pixel \(tile rasterizer: project \d+ ms, sort \d+, bin \d+, composite \d+\)$/);
    for (const k of ['project_ms', 'sort_ms', 'bin_ms', 'composite_ms']) expect(entry.out.stats[k]).toBeGreaterThanOrEqual(0);
    expect(entry.out.stats.visible).toBeGreaterThan(0);
    expect(entry.out.stats.maxOverdraw).toBeGreaterThan(0);
    // A task-sized scene keeps the reference's box overdraw.
    const small = drawView({ splats: roomScene(500, 0, 5), camera, view: 'overdraw', k: 1, shDegree: 0 }, ctx);
    expect(small.entry.out.title).toBe('Overdraw: Gaussians evaluated per pixel');
  });
});
