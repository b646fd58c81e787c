// Collision that holds at any thickness: a 1 cm wall halfway along one 0.25 m move, with both
// ends of the move clear of it by more than the camera radius, stops the move for the exact
// primitive collider, the triangle mesh (a zero-thickness quad and a 1 cm slab) and the voxel
// grid. Checking only the end of a move (world.ts) lets every one of these through.
import { describe, expect, it } from 'vitest';
import { PrimitiveCollider, type Collider } from '../../../../src/shared/kinds/search/collide';
import { MeshCollider } from '../../../../src/shared/kinds/search/mesh-collider';
import { boxMesh, type TriangleMesh } from '../../../../src/shared/kinds/search/obj';
import { VoxelGrid } from '../../../../src/shared/kinds/search/voxels';
import { SearchRules } from '../../../../src/shared/kinds/search/rules';
import { DEFAULT_MOTION, type Pose } from '../../../../src/shared/kinds/search/pose';
import { motionWorld, stepPose } from '../../../../src/shared/kinds/search/world';
import { emptySplats } from '../../../../src/shared/scene/splats';

const WALL_X = 0.125; // halfway along a move from x = 0 heading +X
const T = 0.01;
const start: Pose = { x: 0, y: 0, z: 1, yaw: 0, pitch: 0 };

function quad(): TriangleMesh {
  const positions = [WALL_X, -2, -1, WALL_X, 2, -1, WALL_X, 2, 3, WALL_X, -2, 3];
  return { positions: Float64Array.from(positions), triangles: Uint32Array.from([0, 1, 2, 0, 2, 3]) };
}

function splatWall(): VoxelGrid {
  // A plane of flat Gaussians at x = WALL_X, 3 sigma = 5 mm across, so it fills 1 cm voxels.
  const pts: [number, number][] = [];
  for (let y = -1; y <= 1; y += 0.02) for (let z = 0; z <= 2; z += 0.02) pts.push([y, z]);
  const s = emptySplats(pts.length);
  pts.forEach(([y, z], i) => {
    s.means.set([WALL_X, y, z], i * 3);
    s.scales.set([T / 6, 0.01, 0.01], i * 3);
    s.opacities[i] = 1;
  });
  return VoxelGrid.fromSplats(s, { voxel: 0.01 });
}

const colliders: [string, () => Collider][] = [
  ['exact primitives', () => new PrimitiveCollider([{ kind: 'box', pos: [WALL_X, 0, 1], size: [T, 4, 4], color: '#ffffff' }])],
  ['mesh, zero-thickness quad', () => new MeshCollider(quad())],
  ['mesh, 1 cm slab', () => new MeshCollider(boxMesh([WALL_X - T / 2, -2, -1], [WALL_X + T / 2, 2, 3]))],
  ['voxels of a 1 cm splat wall', () => splatWall()],
];

describe('thin walls stop a move anywhere along it', () => {
  it.each(colliders)('%s', (_name, make) => {
    const c = make();
    const w = motionWorld(c, 0.1, DEFAULT_MOTION);
    // Both ends are clear: only the swept segment touches the wall.
    expect(c.sweepHits([0, 0, 1], [0, 0, 1], 0.1)).toBe(false);
    expect(c.sweepHits([0.25, 0, 1], [0.25, 0, 1], 0.1)).toBe(false);
    const s = stepPose(w, start, 'move_forward');
    expect(s.collided).toBe(true);
    expect(s.pose).toEqual(start);
    // The same through the rules: the step is spent, the pose unchanged, the collision counted.
    const rules = new SearchRules({ question: 'q', choices: [], start, maxSteps: 5, motion: DEFAULT_MOTION, radius: 0.1, defaultForward: true }, c);
    rules.step({ tool: 'move_forward' });
    expect(rules.currentPose()).toEqual(start);
    expect(rules.collisions()).toBe(1);
    // Moving away from the wall is free.
    expect(stepPose(w, start, 'move_back').collided).toBe(false);
  });
});
