// Benchmark of the large-scene rasterizers (issue #12): a synthetic room of 1.5M SH degree 3
// Gaussians at 512x512 and 90 degrees (test/bench/room-scene.ts) on the CPU tile rasterizer in
// worker threads and on the GPU (whatever adapter exists: SwiftShader here); the GPU radix sort of
// 4M random 32-bit keys; CPU vs GPU image parity at 10k, 100k and 1M Gaussians; and the SplatBench
// path (300 Gaussians, the 8 reference views at 256x256) on both, to compare with earlier figures.
// CPU vs GPU parity rows split the pixels as the parity tests do (decidable.ts).
// `--peer torch` runs only the seed comparison (test/bench/torch-peer.ts): the SplatBench scene from
// reference view V0 at 256x256 on the tile rasterizer and on the port of the seed's dense PyTorch
// rasterizer, images checked to agree, and the ratio.
// Run: node --import tsx test/bench/raster.bench.ts [--quick] [--parity] [--big N] [--peer torch] (--parity: the parity
// rows only, without the timings). Prints markdown tables: wall ms
// and process CPU ms (all threads, SwiftShader's included), which is steadier on a shared machine.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { testDevice } from '../helpers/gpu';
import { loadShaders } from '../../src/main/gpu/shaders';
import { TileRasterPool } from '../../src/main/raster/tile-pool';
import { rasterizeForward } from '../../src/shared/raster/cpu';
import { undecidablePixels } from '../../src/shared/raster/cpu/decidable';
import { rasterizeTiles } from '../../src/shared/raster/cpu/tiles';
import { GpuRasterizer, radixSortGpu } from '../../src/shared/raster/gpu';
import { viewCameras, REFERENCE_VIEWS } from '../../src/shared/camera/views';
import { mulberry32 } from '../../src/shared/math/random';
import { emptySplats, type Splats } from '../../src/shared/scene/splats';
import type { Camera, RenderOutput } from '../../src/shared/raster/types';
import { roomCamera, roomScene } from './room-scene';
import { torchPeer } from './torch-peer';

const quick = process.argv.includes('--quick');
const parityOnly = process.argv.includes('--parity');
const bigArg = process.argv.indexOf('--big');
/** The large scene's size: --big N (4000000 checks the buffers the issue sizes for), else 1.5M (150k quick). */
const BIG = bigArg > 0 ? Number(process.argv[bigArg + 1]) : quick ? 150_000 : 1_500_000;
if (!Number.isInteger(BIG) || BIG < 1) throw new Error('--big takes a positive integer number of Gaussians');
const rows: string[] = [];
const row = (what: string, wall: number, cpu: number | null, note = ''): void => {
  rows.push(`| ${what} | ${wall.toFixed(0)} | ${cpu === null ? '' : cpu.toFixed(0)} | ${note} |`);
};

async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const c = process.cpuUsage(c0);
  return { value, wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * GPU vs CPU image split as the parity tests split it (src/shared/raster/cpu/decidable.ts): the
 * max abs difference (RGB and coverage) over decidable pixels, and the undecidable ones (a
 * float32 threshold or depth-order flip is possible there): how many, why, and their max.
 */
function parity(gpu: RenderOutput, cpu: RenderOutput, s: Splats, camera: Camera): string {
  const rep = undecidablePixels(s, camera);
  let decided = 0;
  let undecided = 0;
  for (let p = 0; p < camera.width * camera.height; p++) {
    let d = Math.abs(gpu.alpha[p] - cpu.alpha[p]);
    for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(gpu.rgb[p * 3 + k] - cpu.rgb[p * 3 + k]));
    if (rep.undecidable[p]) undecided = Math.max(undecided, d);
    else decided = Math.max(decided, d);
  }
  const px = camera.width * camera.height;
  const why = Object.entries(rep.byReason).map(([k, v]) => `${k} ${v}`).join(', ');
  return `decidable pixels: max abs diff ${decided.toExponential(2)}; undecidable ${rep.count} of ${px} (${((100 * rep.count) / px).toFixed(2)}%: ${why}), max abs diff there ${undecided.toExponential(2)}`;
}

function splatBenchScene() {
  const rng = mulberry32(300);
  const s = emptySplats(300, 'f32');
  for (let i = 0; i < 300; i++) {
    for (let k = 0; k < 3; k++) {
      s.means[i * 3 + k] = rng.uniform(-0.9, 0.9);
      s.scales[i * 3 + k] = Math.exp(rng.uniform(Math.log(0.02), Math.log(0.2)));
      s.colors[i * 3 + k] = rng.next();
    }
    for (let k = 0; k < 4; k++) s.quats[i * 4 + k] = rng.normal();
    s.opacities[i] = rng.uniform(0.3, 1);
  }
  return s;
}

const peerArg = process.argv.indexOf('--peer');
if (peerArg > 0) {
  const peer = process.argv[peerArg + 1];
  if (peer !== 'torch') throw new Error(`--peer takes torch (got ${peer ?? 'nothing'})`);
  const [v0] = viewCameras(REFERENCE_VIEWS, 256);
  console.log(`## SplatBench scene (300 Gaussians) at 256x256, view ${REFERENCE_VIEWS[0].name}: the tile rasterizer against the seed's renderer\n`);
  console.log(torchPeer(splatBenchScene(), v0, quick ? 3 : 9, quick ? 1 : 3).join('\n'));
  process.exit(0);
}

const cam = roomCamera(512, 0);
// CPU: tile rasterizer as split jobs on a WorkerPool of its own, two threads (the target machine has
// two cores; the lab's pool runs the same jobs with the same two threads there).
const pool = TileRasterPool.create({ workers: 2 });
const device = await testDevice();
const library = loadShaders();
const gpu = device ? GpuRasterizer.create(device, library) : null;

if (!parityOnly) {
  const big = roomScene(BIG, 3);
  await pool.render(big, cam); // first call copies the scene into shared memory and warms the JIT
  const cpuRuns = [];
  for (let r = 0; r < 3; r++) cpuRuns.push(await timed(() => pool.render(big, cam)));
  row(`CPU tile rasterizer, ${BIG} SH3, 512x512, 2 pool threads (median of 3)`, median(cpuRuns.map((r) => r.wall)), median(cpuRuns.map((r) => r.cpu)));
  const single = await timed(() => rasterizeTiles(big, cam));
  row(`CPU tile rasterizer, same, calling thread only`, single.wall, single.cpu);
  const cpuImage = cpuRuns[0].value;
  if (device && gpu) await timeGpu(device, gpu, big, cpuImage);
}
if (gpu) {
  for (const n of quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]) {
    const s = roomScene(n, 3, 7);
    const gi = await gpu.forward(s, cam);
    const ci = await pool.render(s, cam);
    rows.push(`| parity CPU vs GPU, ${n} SH3, 512x512 | | | ${parity(gi, ci, s, cam)} |`);
  }
  gpu.destroy();
} else {
  rows.push('| GPU | | | no WebGPU adapter |');
}

/** GPU timings: the big scene, the radix sort of 4M keys and the SplatBench batch. */
async function timeGpu(device: GPUDevice, gpu: GpuRasterizer, big: Splats, cpuImage: RenderOutput): Promise<void> {
  await gpu.forward(big, cam); // pipelines, buffers and the id capacity settle on the first call
  const g = await timed(() => gpu.forward(big, cam));
  row(`GPU rasterizer, ${BIG} SH3, 512x512`, g.wall, g.cpu, `${device.adapterInfo.architecture || device.adapterInfo.vendor}; vs CPU: ${parity(g.value, cpuImage, big, cam)}`);

  const m = quick ? 400_000 : 4_000_000;
  const rng = mulberry32(4);
  const keys = Uint32Array.from({ length: m }, () => (rng.next() * 2 ** 32) >>> 0);
  const vals = Uint32Array.from({ length: m }, (_, i) => i);
  await radixSortGpu(device, library, keys.subarray(0, 1000), vals.subarray(0, 1000));
  const sort = await timed(() => radixSortGpu(device, library, keys, vals, 32));
  row(`GPU radix sort, ${m} random 32-bit keys (4 passes)`, sort.value.gpuMs, null, 'GPU time of the sort submission, no upload or readback');

  const small = splatBenchScene();
  const views = viewCameras(REFERENCE_VIEWS, 256);
  await gpu.forwardBatch(small, views);
  const batch = [];
  for (let r = 0; r < 3; r++) batch.push(await timed(() => gpu.forwardBatch(small, views)));
  row('SplatBench path: GPU forwardBatch, 300 Gaussians, 8 views at 256x256 (median of 3)', median(batch.map((b) => b.wall)), median(batch.map((b) => b.cpu)));
}

if (!parityOnly) {
  const small = splatBenchScene();
  const views = viewCameras(REFERENCE_VIEWS, 256);
  for (const v of views) rasterizeForward(small, v);
  const ref = [];
  for (let r = 0; r < 3; r++) ref.push(await timed(() => views.forEach((v) => rasterizeForward(small, v))));
  row('SplatBench path: CPU reference forward, 300 Gaussians, 8 views at 256x256 (median of 3)', median(ref.map((b) => b.wall)), median(ref.map((b) => b.cpu)));
}
pool.destroy();

console.log(`Large-scene rasterizers (${availableParallelism()} cores seen; process CPU counts every thread)\n`);
console.log('| measurement | wall ms | process CPU ms | note |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(r);
process.exit(0);
