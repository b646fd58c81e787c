// MCP over HTTP without losses under load (issue 29, benchmark 2): the real `splatlab mcp --http`
// (a child process, CPU device, LPIPS off, the 128x128 test task) while another process keeps
// every core busy (one spinning child per core), and 16 sessions x 40 calls (start_episode, then
// add_gaussians with a request_id each) from this process through the SDK's Streamable HTTP
// client. A call is answered (a tool result), refused with 503 and retried with the same
// request_id (backpressure: charged once), or lost (no answer: a reset, a timeout). The target is
// 0 lost. Run: npm run bench -- mcp-load [--sessions N] [--calls N]. Prints markdown with `uptime`.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Grader } from '../../src/main/grader/grader';
import { buildTestTask } from '../helpers/test-task';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SESSIONS = arg('sessions', 16);
const CALLS = arg('calls', 40);
const uptime = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim();
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

function startMcp(tasksDir: string): Promise<{ url: string; token: string; child: ChildProcess }> {
  const cli = join(process.cwd(), 'src', 'main', 'cli', 'splatlab.mjs');
  const logDir = mkdtempSync(join(tmpdir(), 'splatlab-mcp-bench-'));
  const child = spawn(process.execPath, [cli, 'mcp', '--http', '--port', '0', '--tasks', tasksDir, '--task', 'test__sculpt', '--device', 'cpu', '--no-lpips', '--log-dir', logDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (d: Buffer): void => {
      log += d.toString();
      const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log)?.[1];
      const token = /token: (\S+)/.exec(log)?.[1];
      if (url && token) resolve({ url, token, child });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`mcp exited with ${code}: ${log}`)));
  });
}

interface Tally {
  answered: number;
  retried: number;
  lost: string[];
  ms: number[];
}

async function session(url: string, token: string, s: number, tally: Tally): Promise<void> {
  const client = new Client({ name: `bench-${s}`, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const call = async (name: string, args: Record<string, unknown>): Promise<void> => {
    const t0 = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 })) as CallToolResult;
        if (r.isError && /503|busy|Retry/i.test(JSON.stringify(r.content)) && attempt < 20) {
          tally.retried += 1;
          continue;
        }
        tally.answered += 1;
        tally.ms.push(performance.now() - t0);
        return;
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        // Backpressure is an answer (503 + Retry-After): the same request_id again is charged once.
        if (/503/.test(msg) && attempt < 20) {
          tally.retried += 1;
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
        tally.lost.push(`${name}: ${msg.split('\n')[0]}`);
        return;
      }
    }
  };
  await call('start_episode', {});
  for (let i = 1; i < CALLS; i++) {
    const g = { pos: [Math.sin(i + s) * 0.4, Math.cos(i + s) * 0.4, 0.05 * (i % 3)], scale: 0.06, color: '#a05030' };
    await call('add_gaussians', { gaussians: [g], request_id: `s${s}-c${i}` });
  }
  await client.close();
}

/** A process that keeps one core busy and ends when this bench does (its parent changes). */
const SPIN = 'const p = process.ppid; for (let i = 0; ; i++) if ((i & 0xfffff) === 0 && process.ppid !== p) process.exit(0);';

const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-mcp-bench-tasks-')), 'tasks');
await buildTestTask(tasksDir, { size: 128, grader: await Grader.create({ lpipsDir: null }) });
const mcp = await startMcp(tasksDir);
const spinners = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }));
await new Promise((r) => setTimeout(r, 2000));
const loadBefore = uptime();
const tally: Tally = { answered: 0, retried: 0, lost: [], ms: [] };
const t0 = performance.now();
try {
  await Promise.all(Array.from({ length: SESSIONS }, (_, s) => session(mcp.url, mcp.token, s, tally)));
} finally {
  for (const s of spinners) s.kill('SIGKILL');
  mcp.child.kill('SIGTERM');
}
const wall = (performance.now() - t0) / 1000;
process.stdout.write(`Load during (1 spinning process per core, ${availableParallelism()} cores): ${loadBefore}\nLoad after: ${uptime()}\n\n`);
process.stdout.write('| sessions x calls | answered | retried after 503 | lost | call p50 ms | call p99 ms | wall s |\n|---|---|---|---|---|---|---|\n');
process.stdout.write(`| ${SESSIONS} x ${CALLS} | ${tally.answered} | ${tally.retried} | **${tally.lost.length}** | ${pct(tally.ms, 0.5).toFixed(0)} | ${pct(tally.ms, 0.99).toFixed(0)} | ${wall.toFixed(1)} |\n`);
for (const l of tally.lost.slice(0, 5)) process.stdout.write(`- lost: ${l}\n`);
process.exit(0);
