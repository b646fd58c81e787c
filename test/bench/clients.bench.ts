// Many clients on one `splatlab serve` (issue #18): tool-call latency of add_gaussians and
// episode.start with 1 and 16 concurrent WebSocket clients, and add_gaussians of 1 and 4 clients
// while 2 other clients render 512x512 debugger views (on the lab's worker pool). The server is
// the real CLI in a child process (CPU device); the clients run here. Run: npm run bench -- clients
// (or node --import tsx test/bench/clients.bench.ts). Prints markdown.
import { startLiveServer } from '../main/security/live-server';
import { benchTasks, CALLS, pct, player as client, renderLoop } from './serve-clients';

const row = (label: string, call: string, xs: number[]): string =>
  `| ${label} | ${call} | ${xs.length} | ${pct(xs, 0.5).toFixed(0)} | ${xs.length > 1 ? pct(xs, 0.95).toFixed(0) : ''} | ${xs.length > 1 ? pct(xs, 0.99).toFixed(0) : ''} |`;

const tasksDir = await benchTasks();
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
    const dbg = [renderLoop(server, stop, renders, 512, 1), renderLoop(server, stop, renders, 512, 2)];
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
