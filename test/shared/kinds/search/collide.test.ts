// Collisions of the camera sphere: exact against primitives (walls, furniture, thin legs, a thin
// wall crossed within one move) and on the voxel grid built from the room's Gaussians.
import { describe, expect, it } from 'vitest';
import type { Part, Vec3 } from '../../../../src/shared/authoring/primitives';
import { localDistance, PrimitiveCollider } from '../../../../src/shared/kinds/search/collide';
import { sampleSurface } from '../../../../src/shared/kinds/search/surface';
import { splatRoom } from '../../../../src/shared/kinds/search/splat-room';
import { VoxelGrid } from '../../../../src/shared/kinds/search/voxels';
import { box, emptyRoom } from './rooms';
import { roomParts } from '../../../../src/shared/kinds/search/room';
import { mulberry32 } from '../../../../src/shared/math/random';

const R = 0.1;
const thinWall = box([2, 2, 1.3], [0.02, 4, 2.6]);
const leg: Part = { kind: 'cylinder', pos: [1, 1, 0.4], size: { radius: 0.025, height: 0.8 }, color: '#000000' };

describe('exact collider', () => {
  it('stops a move into a wall and lets a move along it pass', () => {
    const c = new PrimitiveCollider([box([0, 2, 1.3], [0.1, 4, 2.6])]); // inner face at x = 0.05
    expect(c.sweepHits([0.3, 2, 1], [0.55, 2, 1], R)).toBe(false);
    expect(c.sweepHits([0.3, 2, 1], [0.05 + R + 0.01, 2, 1], R)).toBe(false);
    expect(c.sweepHits([0.3, 2, 1], [0.05 + R - 0.01, 2, 1], R)).toBe(true);
    expect(c.sweepHits([0.2, 1, 1], [0.2, 1.25, 1], R)).toBe(false);
  });

  it('catches a thin wall crossed inside one 0.25 m move (both ends are clear of it)', () => {
    const c = new PrimitiveCollider([thinWall]);
    const a: Vec3 = [1.87, 2, 1], b: Vec3 = [2.12, 2, 1];
    expect(c.distance(a)).toBeGreaterThan(R);
    expect(c.distance(b)).toBeGreaterThan(R);
    expect(c.sweepHits(a, b, R)).toBe(true);
    expect(c.sweepHits([1.6, 2, 1], [1.85, 2, 1], R)).toBe(false);
  });

  it('measures thin legs exactly: passing 0.126 m from the axis is free, 0.124 m hits', () => {
    const c = new PrimitiveCollider([leg]);
    expect(c.sweepHits([0.8, 1 + 0.126, 0.5], [1.05, 1 + 0.126, 0.5], R)).toBe(false);
    expect(c.sweepHits([0.8, 1 + 0.124, 0.5], [1.05, 1 + 0.124, 0.5], R)).toBe(true);
    // Above the leg's top (0.8 m) by more than the radius: free.
    expect(c.sweepHits([0.8, 1, 0.91], [1.05, 1, 0.91], R)).toBe(false);
  });

  it('distances agree with the nearest of dense surface samples for every primitive kind', () => {
    const parts: Part[] = [
      { kind: 'box', pos: [0, 0, 0], rot: [10, 20, 30], size: [0.4, 0.2, 0.3], color: '#000000' },
      { kind: 'sphere', pos: [0, 0, 0], size: 0.2, color: '#000000' },
      { kind: 'cylinder', pos: [0, 0, 0], rot: [30, 0, 0], size: { radius: 0.15, height: 0.4 }, color: '#000000' },
      { kind: 'cone', pos: [0, 0, 0], rot: [0, 40, 0], size: { radius: 0.2, height: 0.3 }, color: '#000000' },
    ];
    const rng = mulberry32(3);
    for (const part of parts) {
      const c = new PrimitiveCollider([part]);
      const pts = sampleSurface(part, 0.006).map((s) => s.p);
      for (let i = 0; i < 12; i++) {
        const p: Vec3 = [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)];
        const d = c.distance(p);
        if (d === 0) continue;
        const brute = Math.min(...pts.map((q) => Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2])));
        expect(d).toBeLessThanOrEqual(brute + 1e-9);
        expect(d).toBeGreaterThan(brute - 0.008);
      }
    }
  });

  it('is zero inside a cone and positive above its tip', () => {
    expect(localDistance('cone', [0.2, 0.2, 0.15], 0, 0, 0)).toBe(0);
    expect(localDistance('cone', [0.2, 0.2, 0.15], 0, 0, 0.25)).toBeCloseTo(0.1, 12);
  });
});

describe('voxel collider from Gaussians', () => {
  const room = emptyRoom([{ id: 'thin', role: 'furniture', category: 'panel', color: 'grey', parts: [thinWall] }]);
  const grid = VoxelGrid.fromSplats(splatRoom(room));

  it('marks the walls and leaves the middle of the room empty', () => {
    expect(grid.count()).toBeGreaterThan(1000);
    expect(grid.sweepHits([1, 1, 1.2], [1.25, 1, 1.2], R)).toBe(false);
    expect(grid.sweepHits([0.3, 1, 1.2], [0.05, 1, 1.2], R)).toBe(true);
  });

  it('catches a sweep through the thin panel within one move', () => {
    // With 3-sigma extents and 5 cm voxels the panel is about 0.1 m thick in the grid.
    expect(grid.sweepHits([1.6, 1, 1.2], [1.7, 1, 1.2], R)).toBe(false);
    expect(grid.sweepHits([1.8, 1, 1.2], [2.2, 1, 1.2], R)).toBe(true);
  });

  it('ignores faint Gaussians (opacity below the threshold)', () => {
    const s = splatRoom(room);
    s.opacities.fill(0.05);
    expect(VoxelGrid.fromSplats(s).count()).toBe(0);
    expect(roomParts(room).length).toBe(7);
  });
});
