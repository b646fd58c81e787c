// The hardware-GPU figures of issue #28 item 6, as one prepared run for a device machine
// (scripts/device-bench.sh runs it): 1.5M SH3 Gaussians at 512x512 on the WGSL rasterizer (radix
// path; target 5 ms a frame), the 8-view hidden grade on the GPU path (the test task at 256x256),
// a search step (a 200k SH3 room observation at 512x512 plus its PNG), the 4M-key radix sort, and
// the resident scene's frame after a one-Gaussian edit (a delta upload). Every row names the
// adapter. Run: node --import tsx test/bench/hardware.bench.ts [--json FILE] [--reps N] [--quick].
// Prints a markdown table; --json also writes the figures with the machine, the load and the adapter.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireGpu } from '../../src/main/gpu/device';
import { loadShaders } from '../../src/main/gpu/shaders';
import { Grader } from '../../src/main/grader/grader';
import { encodePng } from '../../src/main/io/png';
import { benchLoad, benchMachine, machineLine } from '../../src/main/raster/bench-machine';
import { roomCamera, roomScene } from '../../src/main/raster/room-scene';
import { loadTask } from '../../src/main/tasks/load';
import { mulberry32 } from '../../src/shared/math/random';
import { GpuRasterizer, radixSortGpu } from '../../src/shared/raster/gpu';
import { packSplats } from '../../src/shared/scene/gaussian';
import { buildTestTask } from '../helpers/test-task';
import { testFigure } from '../helpers/test-figure';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const reps = Number(arg('--reps') ?? 10);
const jsonOut = arg('--json');
/** --quick: small sizes, to check the script itself on a software adapter before a device is lent. */
const quick = process.argv.includes('--quick');
const BIG = quick ? 50_000 : 1_500_000;
const ROOM = quick ? 20_000 : 200_000;
const KEYS = quick ? 100_000 : 4_000_000;
const PHOTO = quick ? 64 : 256;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const loadBefore = benchLoad();

const gpu = await acquireGpu();
if (!gpu.device) {
  console.log(`No WebGPU adapter: ${gpu.status.summary}`);
  process.exit(1);
}
const device = gpu.device;
const adapter = `${gpu.status.summary} (path ${gpu.status.path}; vendor ${gpu.status.vendor || '?'}, architecture ${gpu.status.architecture || '?'}, ${gpu.status.description || 'no description'})`;
const rows: { what: string; target: string; medianMs: number; minMs: number; n: number; note: string }[] = [];

async function timeIt(what: string, target: string, fn: () => Promise<unknown>, note = '', n = reps): Promise<void> {
  await fn(); // pipelines, buffers and capacities settle on the first call
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    await device.queue.onSubmittedWorkDone();
    t.push(performance.now() - t0);
  }
  rows.push({ what, target, medianMs: median(t), minMs: Math.min(...t), n, note });
  process.stderr.write(`${what}: median ${median(t).toFixed(2)} ms\n`);
}

const library = loadShaders();
const raster = GpuRasterizer.create(device, library);

// 1. 1.5M SH3 at 512x512 (the scene resident: the timed frames upload nothing).
const big = roomScene(BIG, 3);
const cam = roomCamera(512, 0);
await timeIt(`frame, ${BIG} SH3 Gaussians, 512x512 (resident scene, readback included)`, '5 ms', () => raster.forward(big, cam));
const edited = { ...big, means: big.means.slice() };
let k = 0;
await timeIt('frame after a one-Gaussian edit (delta upload + frame)', '', async () => {
  edited.means[(k++ % 1000) * 3] += 1e-3;
  await raster.forward(edited, cam);
});
rows[rows.length - 1].note = `uploads so far: ${JSON.stringify(raster.uploads)}`;

// 2. The 8-view hidden grade on the GPU path (the test task, 256x256 photos).
const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-hw-bench-')), 'tasks');
// The task's photos and anchors come from the CPU grader (the same numbers, and quick on any machine).
const builder = await Grader.create({ device: null, lpipsDir: null });
await buildTestTask(tasksDir, { size: PHOTO, grader: builder });
builder.destroy();
const task = await loadTask('test__sculpt', { tasksDir });
const grader = await Grader.create({ device, preferCpu: false, rasterizer: () => raster });
const figure = testFigure();
let step = 0;
await timeIt(`8-view hidden grade at ${PHOTO}x${PHOTO}, GPU path (LPIPS ${grader.lpipsAvailable ? 'on' : 'off: no weights'})`, '0.5 s', async () => {
  const moved = figure.map((g, i) => (i === step % figure.length ? { ...g, pos: [g.pos[0] + 1e-3 * (step % 7), g.pos[1], g.pos[2]] as [number, number, number] } : g));
  step++;
  await grader.grade(task, packSplats(moved));
});

// 3. A search step: a 200k SH3 room observation at 512x512 and its PNG.
const room = roomScene(ROOM, 3, 11);
let turn = 0;
await timeIt(`search step: ${ROOM} SH3 room, 512x512 observation + PNG`, 'a frame per step', async () => {
  const out = await raster.forward(room, roomCamera(512, (turn += 15)));
  encodePng({ width: out.width, height: out.height, data: out.rgb });
});

// 4. The 4M-key radix sort (GPU time of the sort submission).
const rng = mulberry32(4);
const keys = Uint32Array.from({ length: KEYS }, () => (rng.next() * 2 ** 32) >>> 0);
const vals = Uint32Array.from({ length: keys.length }, (_, i) => i);
await radixSortGpu(device, library, keys.subarray(0, 1000), vals.subarray(0, 1000));
const sorts: number[] = [];
for (let i = 0; i < Math.min(reps, 5); i++) sorts.push((await radixSortGpu(device, library, keys, vals, 32)).gpuMs);
rows.push({ what: `radix sort, ${KEYS} random 32-bit keys (4 passes), sort submission only`, target: '', medianMs: median(sorts), minMs: Math.min(...sorts), n: sorts.length, note: '' });

grader.destroy();
raster.destroy();
const machine = benchMachine();
const loadAfter = benchLoad();
console.log(`# Hardware figures, ${new Date().toISOString()}\n`);
console.log(`Adapter: ${adapter}\n`);
console.log(`${machineLine(machine, loadBefore)}; at the end ${loadAfter.uptime}\n`);
console.log('| measurement | target | median ms | min ms | n | note |');
console.log('|---|---|---:|---:|---:|---|');
for (const r of rows) console.log(`| ${r.what} | ${r.target} | ${r.medianMs.toFixed(2)} | ${r.minMs.toFixed(2)} | ${r.n} | ${r.note} |`);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ date: new Date().toISOString(), adapter, gpu: gpu.status, machine, load: { before: loadBefore, after: loadAfter }, rows }, null, 2)}\n`);
process.exit(0);
