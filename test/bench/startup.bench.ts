// Start-up costs (issue 29 item 9): the CPU a fresh worker-pool thread spends before its first job
// (the compiled entry, src/main/workers/compiled.ts, against tsx's transpiler), and the time from a
// new lab context to the first episode's start and its first render_views on the CPU path (fresh
// pool threads included). CPU is process.cpuUsage() over the span (every thread of this process).
// And the `splatlab` command itself, from its compiled bundle (src/main/cli/compiled-cli.mjs)
// against the sources through tsx (SPLATLAB_NO_COMPILED=1): `splatlab tools` to its exit, and
// `splatlab serve` until it prints its URL (that child's CPU from /proc/PID/stat, all threads).
// Run: npm run bench -- startup. Prints markdown.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
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
const CLI = join(process.cwd(), 'src', 'main', 'cli', 'splatlab.mjs');

/** CPU ms (user + system, every thread) a live child has spent so far. */
function childCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** `splatlab serve` until its URL: CPU and wall ms. */
function serveStart(env: NodeJS.ProcessEnv): Promise<{ cpuMs: number; wallMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--device', 'cpu'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    let seen = false;
    const onData = (d: Buffer): void => {
      log += d.toString();
      if (seen || !/serving at http/.test(log)) return;
      seen = true;
      const out = { cpuMs: childCpuMs(child.pid as number), wallMs: performance.now() - t0 };
      child.off('exit', failed);
      child.once('exit', () => resolve(out));
      child.kill('SIGTERM');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const failed = (code: number | null): void => reject(new Error(`serve exited with ${code}: ${log}`));
    child.once('exit', failed);
  });
}

spawnSync(process.execPath, [CLI, 'tools'], { encoding: 'utf8' }); // builds the CLI's bundle once per source tree
for (const mode of ['compiled', 'tsx'] as const) {
  const env = { ...process.env, SPLATLAB_NO_COMPILED: mode === 'tsx' ? '1' : '0', SPLATLAB_HOME: mkdtempSync(join(tmpdir(), 'splatlab-bench-home-')) };
  const tools: { cpu: number[]; wall: number[] } = { cpu: [], wall: [] };
  const serve: { cpu: number[]; wall: number[] } = { cpu: [], wall: [] };
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync('/bin/sh', ['-c', `times_out=$( { /usr/bin/time -f '%U %S' "$0" "$1" tools >/dev/null; } 2>&1 ); echo "$times_out"`, process.execPath, CLI], { encoding: 'utf8', env });
    const [u, sys] = r.stdout.trim().split('\n').pop()?.split(' ').map(Number) ?? [NaN, NaN];
    tools.cpu.push((u + sys) * 1000);
    tools.wall.push(performance.now() - t0);
    const s = await serveStart(env);
    serve.cpu.push(s.cpuMs);
    serve.wall.push(s.wallMs);
  }
  const how = mode === 'tsx' ? 'sources through tsx' : 'compiled bundle';
  rows.push(`| \`splatlab tools\` to its exit (${how}) | ${RUNS} | ${median(tools.cpu).toFixed(0)} | ${median(tools.wall).toFixed(0)} |`);
  rows.push(`| \`splatlab serve\` until its URL (${how}) | ${RUNS} | ${median(serve.cpu).toFixed(0)} | ${median(serve.wall).toFixed(0)} |`);
}

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
