// Search tasks: collision checks per 0.25 m move (exact primitives, the 5 cm voxel grid from the
// room's Gaussians, and a triangle mesh of the parts' boxes through the BVH, as a captured room
// with a mesh collides) and one 512x512 observation at 90 degrees through renderView (its
// default, the tile-binned CPU rasterizer) for a generated room and a 200k-Gaussian version of it.
// Run: node --import tsx test/bench/search.bench.ts. Prints a markdown table.
import { partAabb } from '../../src/shared/authoring/geometry';
import type { Vec3 } from '../../src/shared/authoring/primitives';
import { PrimitiveCollider } from '../../src/shared/search/collide';
import { MeshCollider } from '../../src/shared/search/mesh-collider';
import { boxMesh, mergeMeshes } from '../../src/shared/search/obj';
import { generateRoom } from '../../src/shared/search/generate-room';
import { mulberry32 } from '../../src/shared/math/random';
import { applyMotion, MOVE_ACTIONS, type Pose } from '../../src/shared/search/pose';
import { renderView } from '../../src/shared/search/render';
import { roomParts } from '../../src/shared/search/room';
import { splatRoom } from '../../src/shared/search/splat-room';
import { VoxelGrid } from '../../src/shared/search/voxels';

const rows: string[] = [];
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}
function row(name: string, ms: number[]): void {
  rows.push(`| ${name} | ${ms.length} | ${pct(ms, 0.5).toFixed(3)} | ${pct(ms, 0.99).toFixed(3)} |`);
}

const room = generateRoom(1);
const splats = splatRoom(room);
const exact = new PrimitiveCollider(roomParts(room).map((p) => p.part));
let t = performance.now();
const grid = VoxelGrid.fromSplats(splats);
const gridMs = performance.now() - t;
const rng = mulberry32(9);
const moves: [Pose, Pose][] = [];
for (let i = 0; i < 2000; i++) {
  const p: Pose = { x: rng.uniform(0.2, room.size[0] - 0.2), y: rng.uniform(0.2, room.size[1] - 0.2), z: rng.uniform(0.2, 2.2), yaw: 30 * rng.int(12), pitch: 0 };
  moves.push([p, applyMotion(p, MOVE_ACTIONS[rng.int(MOVE_ACTIONS.length)])]);
}
const mesh = new MeshCollider(mergeMeshes(roomParts(room).map(({ part }) => {
  const b = partAabb(part);
  return boxMesh(b.min as Vec3, b.max as Vec3);
})));
for (const [name, c] of [['exact primitives', exact], ['voxel grid (5 cm)', grid], [`mesh BVH (${mesh.triangleCount} triangles)`, mesh]] as const) {
  const ms: number[] = [];
  for (const [a, b] of moves) {
    t = performance.now();
    c.sweepHits([a.x, a.y, a.z], [b.x, b.y, b.z], 0.1);
    ms.push(performance.now() - t);
  }
  row(`collision check per move, ${name}`, ms);
}
const pose: Pose = { x: room.size[0] / 2, y: 0.4, z: 1.5, yaw: 90, pitch: -30 };
for (const [label, s] of [[`room-1 (${splats.count} Gaussians)`, splats], ['room-1 at 200k Gaussians', splatRoom({ ...room, splat: { ...room.splat, spacing: 0.024 } })]] as const) {
  const ms: number[] = [];
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    renderView(s, pose);
    ms.push(performance.now() - t);
  }
  row(`512x512 observation, renderView default (CPU tiles), ${label}`, ms);
}
process.stdout.write(`Voxel grid build: ${gridMs.toFixed(0)} ms, ${grid.count()} occupied voxels.\n\n`);
process.stdout.write('| what | n | p50 ms | p99 ms |\n|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
