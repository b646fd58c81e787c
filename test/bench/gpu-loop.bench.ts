// GPU grading off the main thread (issue 29 item 1): how long one GPU grade holds the caller's
// event loop, with the GPU path in this process (before) and in its child process (after,
// src/main/grader/gpu-process.ts). On SwiftShader here (the same WGSL as a hardware adapter, run
// on the CPU). A 1 ms interval timer records the longest gap between its runs during each grade;
// an idle stretch of the same length gives the machine's own gap. The test task at 128x128, a
// seeded random scene of 2,000 Gaussians, LPIPS off, 5 grades after one warm-up per mode.
// Run: npm run bench -- gpu-loop. Prints markdown.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Grader } from '../../src/main/grader/grader';
import { acquireGpu, SWIFTSHADER_ICDS } from '../../src/main/gpu/device';
import { loadTask } from '../../src/main/tasks/load';
import { mulberry32 } from '../../src/shared/math/random';
import { emptySplats } from '../../src/shared/scene/splats';
import { buildTestTask, TEST_TASK_IDS } from '../helpers/test-task';
import { pct } from './serve-clients';

process.env.VK_ICD_FILENAMES ??= SWIFTSHADER_ICDS.find((f) => existsSync(f));
const device = (await acquireGpu()).device;
if (!device) throw new Error('no WebGPU adapter (SwiftShader missing?)');

const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-gpu-loop-')), 'tasks');
await buildTestTask(tasksDir, { size: 128, grader: await Grader.create({ lpipsDir: null }) });
const task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir });

const rng = mulberry32(29);
const scene = emptySplats(2000);
for (let i = 0; i < scene.count; i++) {
  for (let k = 0; k < 3; k++) {
    scene.means[i * 3 + k] = rng.uniform(-0.8, 0.8);
    scene.scales[i * 3 + k] = rng.uniform(0.02, 0.12);
    scene.colors[i * 3 + k] = rng.uniform(0, 1);
  }
  scene.quats[i * 4] = 1;
  scene.opacities[i] = rng.uniform(0.2, 0.9);
}

/** Runs `work` with a 1 ms timer; returns the longest gap between its runs and the wall time. */
async function held(work: () => Promise<unknown>): Promise<{ gapMs: number; wallMs: number }> {
  let last = performance.now();
  let gap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  await work();
  const wallMs = performance.now() - t0;
  clearInterval(timer);
  gap = Math.max(gap, performance.now() - last);
  return { gapMs: gap, wallMs };
}

const rows: string[] = [];
for (const [label, gpuProcess] of [['in this process (before)', false], ['in a child process (after)', true]] as const) {
  const grader = await Grader.create({ device, lpipsDir: null, gpuProcess });
  await grader.grade(task, scene);
  const gaps: number[] = [];
  const walls: number[] = [];
  const idle: number[] = [];
  for (let i = 0; i < 5; i++) {
    const g = await held(() => grader.grade(task, scene));
    gaps.push(g.gapMs);
    walls.push(g.wallMs);
    idle.push((await held(() => new Promise((r) => setTimeout(r, g.wallMs)))).gapMs);
  }
  grader.destroy();
  const f = (xs: number[]): string => `${pct(xs, 0.5).toFixed(0)} / ${Math.max(...xs).toFixed(0)}`;
  rows.push(`| ${label} (${grader.placement}) | ${task.heldout.length} | ${f(walls)} | ${f(gaps)} | ${f(idle)} |`);
}
process.stdout.write(`SwiftShader, test task at 128x128, ${scene.count} random Gaussians, LPIPS off, 5 grades after a warm-up.\n\n`);
process.stdout.write('| GPU grade | views | wall ms median / max | longest loop gap ms median / max | idle loop gap ms median / max |\n|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
process.exit(0);
