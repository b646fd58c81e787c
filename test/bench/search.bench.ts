// Search tasks: collision checks per 0.25 m move (exact primitives, the 5 cm voxel grid from
// the room's Gaussians, and a triangle mesh of the parts' boxes through the BVH, as a captured room
// with a mesh collides) and the per-step 512x512 observation at 90 degrees HFOV of a walk through
// room-1 and a 200k-Gaussian resampling of it, on every render path: the tile rasterizer as split
// jobs on the lab's worker pool (what a lab episode uses without a hardware GPU), the same on the
// calling thread only (CLI, baselines), the dense float64 reference (rasterizeForward), and the
// GPU rasterizer (radix path) on whatever adapter exists (SwiftShader here), plus the PNG encoding
// each step adds. CPU ms is the whole process's CPU time (every thread) per step; the load average
// is printed, since the build machine is shared.
// Run: node --import tsx test/bench/search.bench.ts [--steps N]. Prints a markdown table.
import { partAabb } from '../../src/shared/authoring/geometry';
import type { Vec3 } from '../../src/shared/authoring/primitives';
import { loadavg } from 'node:os';
import { acquireGpu } from '../../src/main/gpu/device';
import { loadShaders } from '../../src/main/gpu/shaders';
import { encodePng } from '../../src/main/io/png-encode';
import { labViews } from '../../src/main/raster/views';
import { WorkerPool } from '../../src/main/workers/pool';
import { rasterizeForward } from '../../src/shared/raster/cpu';
import { GpuRasterizer } from '../../src/shared/raster/gpu';
import type { RenderOutput } from '../../src/shared/raster/types';
import type { Splats } from '../../src/shared/scene/splats';
import { PrimitiveCollider } from '../../src/shared/kinds/search/collide';
import { MeshCollider } from '../../src/shared/kinds/search/mesh-collider';
import { boxMesh, mergeMeshes } from '../../src/shared/kinds/search/obj';
import { generateRoom } from '../../src/shared/kinds/search/generate-room';
import { mulberry32 } from '../../src/shared/math/random';
import { applyMotion, MOVE_ACTIONS, type Pose } from '../../src/shared/kinds/search/pose';
import { renderView, renderViewAsync } from '../../src/shared/kinds/search/render';
import { roomParts } from '../../src/shared/kinds/search/room';
import { splatRoom } from '../../src/shared/kinds/search/splat-room';
import { VoxelGrid } from '../../src/shared/kinds/search/voxels';

const stepsArg = process.argv.indexOf('--steps');
const STEPS = stepsArg > 0 ? Number(process.argv[stepsArg + 1]) : 10;

const rows: string[] = [];
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}
function cpuMs(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}
function row(name: string, ms: number[], cpu: number, digits = 1): void {
  rows.push(`| ${name} | ${ms.length} | ${pct(ms, 0.5).toFixed(digits)} | ${pct(ms, 0.99).toFixed(digits)} | ${(cpu / ms.length).toFixed(digits)} |`);
}

/** Times `render` over the walk (after one untimed warm-up view) and adds a row. */
async function timeWalk(name: string, walk: Pose[], render: (p: Pose) => Promise<RenderOutput> | RenderOutput): Promise<RenderOutput[]> {
  await render(walk[0]);
  const ms: number[] = [];
  const outs: RenderOutput[] = [];
  const c0 = process.cpuUsage();
  for (const p of walk) {
    const t0 = performance.now();
    outs.push(await render(p));
    ms.push(performance.now() - t0);
  }
  row(name, ms, cpuMs(c0));
  return outs;
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
const loadStart = load();
for (const [name, c] of [['exact primitives', exact], ['voxel grid (5 cm)', grid], [`mesh BVH (${mesh.triangleCount} triangles)`, mesh]] as const) {
  const ms: number[] = [];
  const c0 = process.cpuUsage();
  for (const [a, b] of moves) {
    t = performance.now();
    c.sweepHits([a.x, a.y, a.z], [b.x, b.y, b.z], 0.1);
    ms.push(performance.now() - t);
  }
  row(`collision check per move, ${name}`, ms, cpuMs(c0), 3);
}

// A walk of STEPS observations: turns and moves as a player makes them (no collision check: only
// the views matter here).
const actions = ['turn_left', 'move_forward', 'turn_left', 'look_down', 'move_forward', 'turn_right', 'look_up', 'move_left', 'turn_right', 'move_back'] as const;
const walk: Pose[] = [{ x: room.size[0] / 2, y: 0.6, z: 1.5, yaw: 90, pitch: -30 }];
while (walk.length < STEPS) walk.push(applyMotion(walk[walk.length - 1], actions[walk.length % actions.length]));

const pool = new WorkerPool();
const views = labViews({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, pool, gpuRasterizer: () => null });
const gpu = await acquireGpu();
const gpuRaster = gpu.device ? GpuRasterizer.create(gpu.device, loadShaders()) : null;
const notes: string[] = [`Lab pool: ${pool.size} thread(s) for ordinary jobs, ${pool.splitSize} for split jobs; views on ${views.on}.`];
const big = splatRoom({ ...room, splat: { ...room.splat, spacing: 0.024 } });
for (const [label, s] of [[`room-1 (${splats.count} Gaussians)`, splats], [`room-1 at ${big.count} Gaussians`, big]] as [string, Splats][]) {
  const pooled = await timeWalk(`512x512 observation, tile rasterizer on the lab pool, ${label}`, walk, (p) => renderViewAsync(s, p, views.render));
  const here = await timeWalk(`512x512 observation, tile rasterizer on the calling thread, ${label}`, walk, (p) => renderView(s, p));
  let same = true;
  for (let i = 0; i < walk.length; i++) same &&= pooled[i].rgb.every((v, k) => v === here[i].rgb[k]);
  notes.push(`${label}: pool and calling-thread images ${same ? 'bit for bit equal' : 'DIFFER'} over the walk.`);
  await timeWalk(`512x512 observation, dense CPU reference (rasterizeForward), ${label}`, walk.slice(0, 2), (p) => renderView(s, p, rasterizeForward));
  if (gpuRaster) await timeWalk(`512x512 observation, GPU rasterizer (${gpu.status.path}), ${label}`, walk.slice(0, 5), (p) => renderViewAsync(s, p, (sp, c) => gpuRaster.forward(sp, c)));
  else notes.push(`GPU not measured: ${gpu.status.summary}`);
  const png: number[] = [];
  const c0 = process.cpuUsage();
  for (const out of pooled) {
    t = performance.now();
    encodePng({ width: out.width, height: out.height, data: out.rgb });
    png.push(performance.now() - t);
  }
  row(`PNG encoding of the observation, ${label}`, png, cpuMs(c0));
}
gpuRaster?.destroy();
views.destroy();
await pool.close();
process.stdout.write(`Voxel grid build: ${gridMs.toFixed(0)} ms, ${grid.count()} occupied voxels. GPU: ${gpu.status.summary}\n`);
process.stdout.write(`Load average (1, 5, 15 min): ${loadStart} at the start, ${load()} at the end.\n${notes.join('\n')}\n\n`);
process.stdout.write('| what | n | p50 ms | p99 ms | CPU ms per op (all threads) |\n|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
