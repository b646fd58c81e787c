// Hidden-grade latency: the grade after an edit (8 held-out views at 256x256, a 300-Gaussian
// scene, PSNR + SSIM + IoU with and without LPIPS) on the GPU path (WGSL rasterizer + GpuMetrics)
// and on the CPU references. The first grade of a grader includes its one-off photo work (upload,
// photo LPIPS features); later grades only render and compare.
// Run: node --import tsx bench/grader.bench.ts [--cpu] [--size N] [--runs N]. Prints a markdown table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireGpu } from '../src/main/gpu/device';
import { Grader } from '../src/main/grader/grader';
import { loadTask, type LoadedTask } from '../src/main/tasks/load';
import { buildTestTask } from '../src/main/tasks/testTask';
import { Random } from '../src/shared/math/random';
import { quatNormalize } from '../src/shared/math/quaternion';
import { packSplats, type GaussianRecord } from '../src/shared/scene/gaussian';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const size = arg('--size', 256);
const runs = arg('--runs', 5);
const cpuOnly = process.argv.includes('--cpu');

const rng = new Random(11);
const scene: GaussianRecord[] = Array.from({ length: 300 }, (_, id) => ({
  id,
  pos: [rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7), rng.uniform(-0.8, 0.8)],
  scale: [rng.uniform(0.02, 0.12), rng.uniform(0.02, 0.12), rng.uniform(0.02, 0.12)],
  quat: quatNormalize([rng.normal(), rng.normal(), rng.normal(), rng.normal()]),
  color: [rng.next(), rng.next(), rng.next()],
  opacity: rng.uniform(0.3, 1),
}));

/** One edit (a Gaussian moved), as an episode step would make before its hidden grade. */
function edit(i: number): void {
  const r = scene[i % scene.length];
  r.pos = [rng.uniform(-0.7, 0.7), r.pos[1], r.pos[2]];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(label: string, grader: Grader, task: LoadedTask, rows: string[]): Promise<void> {
  const times: number[] = [];
  let score = 0;
  for (let i = 0; i <= runs; i++) {
    edit(i);
    const t = performance.now();
    score = (await grader.grade(task, packSplats(scene))).score;
    times.push(performance.now() - t);
  }
  const [first, ...warm] = times;
  const lpips = grader.lpipsAvailable ? 'yes' : 'no';
  rows.push(`| ${label} | ${lpips} | ${warm.length} | ${first.toFixed(0)} | ${median(warm).toFixed(0)} | ${Math.max(...warm).toFixed(0)} | ${score.toFixed(2)} |`);
}

const gpu = await acquireGpu({ forceCpu: cpuOnly });
const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-grader-bench-')), 'tasks');
const builder = await Grader.create({ device: gpu.device });
await buildTestTask(tasksDir, { size, grader: builder });
builder.destroy();
const task = await loadTask('test__sculpt', { tasksDir });

const rows: string[] = [];
const paths: { label: string; device: GPUDevice | null }[] = [
  ...(gpu.device ? [{ label: `GPU (${gpu.status.path})`, device: gpu.device }] : []),
  { label: 'CPU reference', device: null },
];
for (const p of paths) {
  for (const lpipsDir of [null, undefined]) {
    const grader = await Grader.create({ device: p.device, lpipsDir });
    await measure(p.label, grader, task, rows);
    grader.destroy();
  }
}

console.log(`## Hidden grade after an edit: ${task.heldout.length} held-out views at ${size}x${size}, 300 Gaussians\n`);
console.log(`GPU path: ${gpu.status.path} (${gpu.status.summary}); Node ${process.version}\n`);
console.log('| path | LPIPS | runs | first grade (ms) | median (ms) | max (ms) | last score |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
