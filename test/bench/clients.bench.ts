// Many clients on one `splatlab serve` (issue #18): tool-call latency of add_gaussians and
// episode.start with 1 and 16 concurrent WebSocket clients, and add_gaussians while another
// client renders in the debugger. The server is the real CLI in a child process (CPU device);
// the clients run here. Run: node --import tsx test/bench/clients.bench.ts. Prints markdown.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Grader } from '../../src/main/grader/grader';
import { buildTestTask } from '../helpers/test-task';
import { startLiveServer, type LiveServer } from '../main/security/live-server';

const CALLS = 12;
let nextId = 1;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

function open(server: LiveServer): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/lab?token=${server.token}`, { maxPayload: 64 * 1024 * 1024 });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function call(ws: WebSocket, method: string, params: unknown): Promise<{ ms: number; result: Record<string, unknown> }> {
  const id = nextId++;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const on = (data: WebSocket.RawData): void => {
      const reply = JSON.parse(data.toString()) as { id: number; ok: boolean; result: Record<string, unknown>; error?: { message: string } };
      if (reply.id !== id) return;
      ws.off('message', on);
      if (!reply.ok) reject(new Error(`${method}: ${reply.error?.message}`));
      else resolve({ ms: performance.now() - t0, result: reply.result });
    };
    ws.on('message', on);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

async function client(server: LiveServer, adds: number[], starts: number[]): Promise<void> {
  const ws = await open(server);
  const start = await call(ws, 'episode.start', { taskId: 'test__sculpt' });
  starts.push(start.ms);
  const episodeId = String(start.result.episodeId);
  for (let i = 0; i < CALLS; i++) {
    const g = { pos: [Math.sin(i) * 0.4, Math.cos(i) * 0.4, 0.1 * (i % 3)], scale: 0.08, color: [0.8, 0.3, 0.2] };
    adds.push((await call(ws, 'episode.step', { episodeId, tool: 'add_gaussians', args: { gaussians: [g] } })).ms);
  }
  await call(ws, 'episode.close', { episodeId });
  ws.close();
}

async function debugger_(server: LiveServer, stop: { done: boolean }, renders: number[]): Promise<void> {
  const ws = await open(server);
  const session = await call(ws, 'debug.open', { source: { kind: 'task', taskId: 'test__sculpt', scene: 'fit' } });
  const sessionId = String(session.result.sessionId);
  while (!stop.done) {
    const camera = { kind: 'orbit', azimuth: renders.length * 17, elevation: 20, width: 512, height: 512 };
    renders.push((await call(ws, 'debug.view', { sessionId, camera, view: 'rgb' })).ms);
  }
  ws.close();
}

const grader = await Grader.create({ lpipsDir: null });
const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-bench-')), 'tasks');
await buildTestTask(tasksDir, { size: 128, grader });
const server = await startLiveServer(tasksDir);
const rows: string[] = [];
try {
  await client(server, [], []); // warm-up: grader, task cache, JIT
  for (const n of [1, 16]) {
    const adds: number[] = [];
    const starts: number[] = [];
    await Promise.all(Array.from({ length: n }, () => client(server, adds, starts)));
    rows.push(`| ${n} client${n > 1 ? 's' : ''} | add_gaussians | ${adds.length} | ${pct(adds, 0.5).toFixed(0)} | ${pct(adds, 0.99).toFixed(0)} |`);
    rows.push(`| ${n} client${n > 1 ? 's' : ''} | episode.start | ${starts.length} | ${pct(starts, 0.5).toFixed(0)} | ${pct(starts, 0.99).toFixed(0)} |`);
  }
  const stop = { done: false };
  const renders: number[] = [];
  const adds: number[] = [];
  const dbg = debugger_(server, stop, renders);
  await new Promise((r) => setTimeout(r, 300));
  await client(server, adds, []);
  stop.done = true;
  await dbg;
  rows.push(`| 1 client + 1 debugger (512x512 views) | add_gaussians | ${adds.length} | ${pct(adds, 0.5).toFixed(0)} | ${pct(adds, 0.99).toFixed(0)} |`);
  rows.push(`| (the debugger itself) | debug.view 512x512 | ${renders.length} | ${pct(renders, 0.5).toFixed(0)} | ${pct(renders, 0.99).toFixed(0)} |`);
} finally {
  await server.stop();
}
process.stdout.write(`Test task at 128x128, ${CALLS} add_gaussians per client after episode.start, CPU device, hidden grade deferred.\n\n`);
process.stdout.write('| clients | call | n | p50 ms | p99 ms |\n|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
