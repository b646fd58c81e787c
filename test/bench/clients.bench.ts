// Many clients on one `splatlab serve` (issue #18): tool-call latency of add_gaussians and
// episode.start with 1 and 16 concurrent WebSocket clients, and add_gaussians of 1 and 4 clients
// while 2 other clients render 512x512 debugger views (on the lab's worker pool). The server is
// the real CLI in a child process (CPU device); the clients run here. Run: npm run bench -- clients
// (or node --import tsx test/bench/clients.bench.ts). Prints markdown.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Grader } from '../../src/main/grader/grader';
import { buildTestTask } from '../helpers/test-task';
import { startLiveServer, type LiveServer } from '../main/security/live-server';
import { openClient } from '../main/workers/ws-client';

const CALLS = 12;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

async function timed<T>(work: Promise<T>): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await work;
  return { ms: performance.now() - t0, result };
}

async function client(server: LiveServer, adds: number[], starts: number[]): Promise<void> {
  const c = await openClient(server);
  const start = await timed(c.call<{ episodeId: string }>('episode.start', { taskId: 'test__sculpt' }));
  starts.push(start.ms);
  const { episodeId } = start.result;
  for (let i = 0; i < CALLS; i++) {
    const g = { pos: [Math.sin(i) * 0.4, Math.cos(i) * 0.4, 0.1 * (i % 3)], scale: 0.08, color: [0.8, 0.3, 0.2] };
    adds.push((await timed(c.call('episode.step', { episodeId, tool: 'add_gaussians', args: { gaussians: [g] } }))).ms);
  }
  await c.call('episode.close', { episodeId });
  c.close();
}

async function debugger_(server: LiveServer, stop: { done: boolean }, renders: number[], seed: number): Promise<void> {
  const c = await openClient(server);
  const { sessionId } = await c.call<{ sessionId: string }>('debug.open', { source: { kind: 'task', taskId: 'test__sculpt', scene: 'fit' } });
  for (let i = 0; !stop.done; i++) {
    // A new camera each time, so every call renders (no cached view).
    const camera = { kind: 'orbit', azimuth: seed * 1000 + i * 17, elevation: 20, width: 512, height: 512 };
    renders.push((await timed(c.call('debug.view', { sessionId, camera, view: 'rgb' }))).ms);
  }
  c.close();
}

const row = (label: string, call: string, xs: number[]): string =>
  `| ${label} | ${call} | ${xs.length} | ${pct(xs, 0.5).toFixed(0)} | ${xs.length > 1 ? pct(xs, 0.95).toFixed(0) : ''} | ${xs.length > 1 ? pct(xs, 0.99).toFixed(0) : ''} |`;

const grader = await Grader.create({ lpipsDir: null });
const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-bench-')), 'tasks');
await buildTestTask(tasksDir, { size: 128, grader });
const server = await startLiveServer(tasksDir);
const rows: string[] = [];
try {
  await client(server, [], []); // warm-up: grader, task cache, JIT, the pool's thread
  for (const n of [1, 16]) {
    const adds: number[] = [];
    const starts: number[] = [];
    await Promise.all(Array.from({ length: n }, () => client(server, adds, starts)));
    rows.push(row(`${n} client${n > 1 ? 's' : ''}`, 'add_gaussians', adds));
    rows.push(row(`${n} client${n > 1 ? 's' : ''}`, 'episode.start', starts));
  }
  for (const n of [1, 4]) {
    const stop = { done: false };
    const renders: number[] = [];
    const adds: number[] = [];
    const dbg = [debugger_(server, stop, renders, 1), debugger_(server, stop, renders, 2)];
    await new Promise((r) => setTimeout(r, 500)); // the debuggers are rendering
    await Promise.all(Array.from({ length: n }, () => client(server, adds, [])));
    stop.done = true;
    await Promise.all(dbg);
    rows.push(row(`${n} client${n > 1 ? 's' : ''} + 2 debugger clients rendering`, 'add_gaussians', adds));
    rows.push(row('(the 2 debugger clients)', 'debug.view 512x512', renders));
  }
} finally {
  await server.stop();
}
process.stdout.write(`Test task at 128x128, ${CALLS} add_gaussians per client after episode.start, CPU device, hidden grades deferred, worker pool of the server's default size.\n\n`);
process.stdout.write('| clients | call | n | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
