// Start-up costs (issue 29 item 9): the CPU a fresh worker-pool thread spends before its first job
// (the compiled entry, src/main/workers/compiled.ts, against tsx's transpiler), and the time from a
// new lab context to the first episode's start and its first render_views on the CPU path (fresh
// pool threads included). CPU is process.cpuUsage() over the span (every thread of this process).
// Run: npm run bench -- startup. Prints markdown.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Grader } from '../../src/main/grader/grader';
import { createLabContext } from '../../src/main/services/context';
import { WorkerPool } from '../../src/main/workers/pool';
import { compiledPoolWorker } from '../../src/main/workers/compiled';
import { buildTestTask } from '../helpers/test-task';

const RUNS = 3;

async function span<T>(work: () => Promise<T>): Promise<{ wallMs: number; cpuMs: number; result: T }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const c = process.cpuUsage(c0);
  return { wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, result };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows: string[] = [];

compiledPoolWorker(); // the bundle is built once per source tree; the runs below measure its use
for (const mode of ['compiled', 'tsx'] as const) {
  process.env.SPLATLAB_NO_COMPILED_WORKERS = mode === 'tsx' ? '1' : '0';
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // A child module cache is not needed: each pool starts its own thread, which loads the entry anew.
    const pool = new WorkerPool({ size: 1 });
    const s = await span(() => pool.run('probe.echo', { value: i }, { client: 'bench' }));
    walls.push(s.wallMs);
    cpus.push(s.cpuMs);
    await pool.close();
  }
  rows.push(`| first job on a fresh pool thread (${mode === 'tsx' ? 'tsx transpiler' : 'compiled entry'}) | ${RUNS} | ${median(cpus).toFixed(0)} | ${median(walls).toFixed(0)} |`);
}
process.env.SPLATLAB_NO_COMPILED_WORKERS = '0';

const grader = await Grader.create({ lpipsDir: null });
const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-bench-')), 'tasks');
await buildTestTask(tasksDir, { size: 128, grader });
const gpu = { device: null, status: { path: 'cpu' as const, vendor: '', architecture: '', description: '', summary: '' } };
const starts: { wall: number[]; cpu: number[] } = { wall: [], cpu: [] };
const renders: { wall: number[]; cpu: number[] } = { wall: [], cpu: [] };
for (let i = 0; i < RUNS; i++) {
  const ctx = createLabContext({ gpu, tasksDir, home: mkdtempSync(join(tmpdir(), 'splatlab-bench-home-')), version: '0', transport: 'direct', listTasks: async () => [] });
  const s = await span(() => ctx.episodes.start({ taskId: 'test__sculpt' }));
  starts.wall.push(s.wallMs);
  starts.cpu.push(s.cpuMs);
  const r = await span(() => ctx.episodes.step(s.result.episodeId, { tool: 'render_views', args: {} }));
  renders.wall.push(r.wallMs);
  renders.cpu.push(r.cpuMs);
  await ctx.close();
}
rows.push(`| episode.start on a new lab context (test task, 128x128, CPU) | ${RUNS} | ${median(starts.cpu).toFixed(0)} | ${median(starts.wall).toFixed(0)} |`);
rows.push(`| its first render_views (fresh pool threads) | ${RUNS} | ${median(renders.cpu).toFixed(0)} | ${median(renders.wall).toFixed(0)} |`);
process.stdout.write('| what | runs | median CPU ms | median wall ms |\n|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
