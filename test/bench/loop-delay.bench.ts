// A lab that never blocks (issue 29 item 1 and its benchmark): the real `splatlab serve` (CPU
// device, a child process) under 16 playing WebSocket clients, one client rendering 1024x1024
// debugger views in a loop and one client uploading a splat bomb (an SPZ declaring 4M SH3
// Gaussians in a third of a MiB, refused from its header) again and again; and, on a fresh
// server, 1 client alone. Per-call p50/p99 of add_gaussians and episode.start, and the server's
// own event-loop delay from app.info: over the measured window itself (eventLoopRecent with
// loopWindowS: the seconds since that run's load began) and since that server
// started (eventLoop, start-up included). Run: npm run bench -- loop-delay. Prints markdown.
import { constants, gzipSync } from 'node:zlib';
import type { EventLoopDelay } from '../../src/shared/api/schemas';
import { startLiveServer, type LiveServer } from '../main/security/live-server';
import { openClient } from '../main/workers/ws-client';
import { benchTasks, CALLS, pct, player, renderLoop } from './serve-clients';

function spzBomb(): Buffer {
  const count = 4 * 1024 * 1024;
  const payload = Buffer.alloc(16 + count * 65);
  payload.writeUInt32LE(0x5053474e, 0);
  payload.writeUInt32LE(3, 4);
  payload.writeUInt32LE(count, 8);
  payload.writeUInt8(3, 12);
  payload.writeUInt8(12, 13);
  return gzipSync(payload, { level: constants.Z_BEST_COMPRESSION });
}

async function uploader(server: LiveServer, stop: { done: boolean }, refusals: string[]): Promise<void> {
  const bomb = spzBomb();
  const c = await openClient(server);
  while (!stop.done) {
    const { uploadId, chunkBytes } = await c.call<{ uploadId: string; chunkBytes: number }>('debug.upload.begin', { name: 'bomb.spz', bytes: bomb.length });
    for (let at = 0; at < bomb.length; at += chunkBytes) await c.call('debug.upload.put', { uploadId, offset: at, data: bomb.subarray(at, at + chunkBytes).toString('base64') });
    const answer = await c.call('debug.open', { source: { kind: 'upload', uploadId, up: 'detected' } }).then(() => 'opened (should not)', (e: Error) => e.message.slice(0, 80));
    refusals.push(answer);
  }
  c.close();
}

/** The server's delay over the `since` window (performance.now() of its start) and since it started. */
async function loopDelay(server: LiveServer, since: number): Promise<{ window: EventLoopDelay; all: EventLoopDelay }> {
  const c = await openClient(server);
  const loopWindowS = Math.min(120, (performance.now() - since) / 1000);
  const info = await c.call<{ eventLoop: EventLoopDelay; eventLoopRecent: EventLoopDelay }>('app.info', { loopWindowS });
  c.close();
  return { window: info.eventLoopRecent, all: info.eventLoop };
}

const row = (label: string, call: string, xs: number[]): string => `| ${label} | ${call} | ${xs.length} | ${pct(xs, 0.5).toFixed(0)} | ${pct(xs, 0.99).toFixed(0)} |`;
const delayRow = (label: string, d: { window: EventLoopDelay; all: EventLoopDelay }): string =>
  `| ${label} | ${d.window.p50Ms} / ${d.window.p99Ms} / ${d.window.maxMs} | ${d.window.sinceS} | ${d.all.p50Ms} / ${d.all.p99Ms} / ${d.all.maxMs} | ${d.all.sinceS} |`;

const tasksDir = await benchTasks();
const rows: string[] = [];
const delays: string[] = [];
let refusal = '';

{
  const server = await startLiveServer(tasksDir);
  try {
    await player(server, [], []); // warm-up: grader, task cache, JIT, the pool's threads
    const adds: number[] = [];
    const starts: number[] = [];
    const since = performance.now();
    await player(server, adds, starts);
    rows.push(row('1 client', 'add_gaussians', adds), row('1 client', 'episode.start', starts));
    delays.push(delayRow('1 client', await loopDelay(server, since)));
  } finally {
    await server.stop();
  }
}
{
  const server = await startLiveServer(tasksDir);
  try {
    await player(server, [], []);
    const since = performance.now();
    const stop = { done: false };
    const renders: number[] = [];
    const refusals: string[] = [];
    const side = [renderLoop(server, stop, renders, 1024), uploader(server, stop, refusals)];
    await new Promise((r) => setTimeout(r, 500));
    const adds: number[] = [];
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 16 }, () => player(server, adds, starts)));
    stop.done = true;
    await Promise.all(side);
    refusal = `${refusals.length} bomb uploads, each answered: "${refusals[0] ?? ''}..."`;
    rows.push(row('16 clients + 1024x1024 render loop + bomb uploads', 'add_gaussians', adds), row('(same)', 'episode.start', starts), row('(the render loop)', 'debug.view 1024x1024', renders));
    delays.push(delayRow('16 clients + render loop + bomb uploads', await loopDelay(server, since)));
  } finally {
    await server.stop();
  }
}
process.stdout.write(`Test task at 128x128, ${CALLS} add_gaussians per client after episode.start, CPU device, hidden grades deferred, worker pool of the server's default size. ${refusal}\n\n`);
process.stdout.write('| clients | call | n | p50 ms | p99 ms |\n|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n\n`);
process.stdout.write('Server event-loop delay (app.info): over the measured window, and since the server started (start-up included):\n\n| run | window p50 / p99 / max ms | window s | since start p50 / p99 / max ms | since start s |\n|---|---|---|---|---|\n');
process.stdout.write(`${delays.join('\n')}\n`);
