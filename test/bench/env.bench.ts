// Episode latency: non-render calls (pure episode, and SplatEnv with an fsynced log), render_views
// of 4 and 8 views and the hidden grade after an edit, on a 300-Gaussian scene at 256x256.
// Run: node --import tsx test/bench/env.bench.ts [--cpu]. Prints a markdown table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Episode } from '../../src/shared/kinds/splatbench/episode';
import { Random } from '../../src/shared/math/random';
import { SplatEnv, episodeConfig } from '../../src/main/kinds/splatbench/env';
import { packRecords } from '../../src/shared/scene/records';
import { Grader, graderDevice } from '../../src/main/grader/grader';
import { acquireGpu } from '../../src/main/gpu/device';
import { loadTask } from '../../src/main/tasks/load';
import { buildTestTask } from '../helpers/test-task';

const rng = new Random(5);
const rows: string[] = [];

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

function row(name: string, ms: number[]): void {
  rows.push(`| ${name} | ${ms.length} | ${pct(ms, 0.5).toFixed(3)} | ${pct(ms, 0.99).toFixed(3)} |`);
}

function gaussians(n: number): { pos: number[]; color: number[]; scale: number[]; group: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    pos: [rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6)],
    color: [rng.next(), rng.next(), rng.next()],
    scale: [rng.uniform(0.02, 0.1), rng.uniform(0.02, 0.1), rng.uniform(0.02, 0.1)],
    group: `g${i % 6}`,
  }));
}

function nonRenderCall(i: number): { tool: string; args?: unknown } {
  switch (i % 4) {
    case 0: return { tool: 'edit_gaussians', args: { gaussians: [{ id: i % 300, pos: [rng.uniform(-1, 1), 0, 0] }] } };
    case 1: return { tool: 'transform_group', args: { group: `g${i % 6}`, rotate_deg: 1, translate: [0, 0, 0] } };
    case 2: return { tool: 'describe_groups' };
    default: return { tool: 'list_gaussians', args: { group: `g${i % 6}` } };
  }
}

async function time<T>(f: () => Promise<T> | T): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

const cpuOnly = process.argv.includes('--cpu');
const gpu = await acquireGpu({ forceCpu: cpuOnly });
// The lab's own grader choice (CPU fast path unless the adapter is hardware), LPIPS when found.
const grader = await Grader.create(graderDevice(gpu));
const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-bench-')), 'tasks');
await buildTestTask(tasksDir, { size: 256, grader });
const task = await loadTask('test__sculpt', { tasksDir });
task.spec = { ...task.spec, max_tool_calls: 100_000, max_renders: 1000 };

// Pure episode: validation, scene update, text.
const ep = new Episode(episodeConfig(task));
ep.step({ tool: 'add_gaussians', args: { gaussians: gaussians(300) } });
const pure: number[] = [];
for (let i = 0; i < 4000; i++) pure.push(await time(() => ep.step(nonRenderCall(i))));
row('pure episode, non-render call (300 Gaussians)', pure);

// SplatEnv with log (fsync per record), hidden grading off to isolate the episode overhead.
const { env } = await SplatEnv.reset(task, { grader, log: join(tasksDir, 'bench.jsonl'), gradeEachStep: false });
await env.step({ tool: 'add_gaussians', args: { gaussians: gaussians(300) } });
const logged: number[] = [];
for (let i = 0; i < 1000; i++) logged.push(await time(() => env.step(nonRenderCall(i))));
row('SplatEnv non-render call + fsynced log record', logged);
const r4: number[] = [];
const r8: number[] = [];
for (let i = 0; i < 5; i++) r4.push(await time(() => env.step({ tool: 'render_views', args: { views: [0, 1, 6, 7] } })));
for (let i = 0; i < 5; i++) r8.push(await time(() => env.step({ tool: 'render_views' })));
row('render_views, 4 views (render + metrics + PNG sheet)', r4);
row('render_views, 8 views', r8);
env.close();
const grades: number[] = [];
for (let i = 0; i < 5; i++) {
  ep.step(nonRenderCall(0));
  grades.push(await time(() => grader.grade(task, packRecords(ep.records()))));
}
row(`hidden grade after an edit (8 held-out views, ${grader.lpipsAvailable ? 'all four metrics' : 'no LPIPS weights'})`, grades);

console.log(`Episode latency, grader on ${grader.kind} (${gpu.status.path}), 256x256, 300 Gaussians\n`);
console.log('| measurement | n | p50 ms | p99 ms |\n|---|---|---|---|');
for (const r of rows) console.log(r);
grader.destroy();
process.exit(0);
