// MCP over HTTP under load (issues 29 and 37, benchmark 2): the real `splatlab mcp --http` (a
// child process, CPU device, LPIPS off, the 128x128 test task; the per-step hidden grade deferred,
// yielding to calls and coalesced per episode: SplatEnvOptions.coalesceHiddenGrades), optionally
// with one spinning child per core (--spin), and 16 sessions x 30 calls (start_episode, then
// add_gaussians, list_gaussians and render_views in turn, each with a request_id) from this process
// through the SDK's Streamable HTTP client with its default request timeout (60 s). A call is
// answered (a tool result), refused with 503 and retried with the same request_id (backpressure:
// charged once), timed out (the SDK's timeout: the failure) or lost (no answer). Targets:
// 0 lost, 0 timeouts, p99 of each tool within 10 s. Run: npm run bench -- mcp-load [--sessions N]
// [--calls N] [--spin]. Prints markdown with `uptime` before and after. SPLATLAB_MCP_NODE_ARGS
// passes node flags to the server (profiling: '--cpu-prof --cpu-prof-dir=DIR').
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
const CALLS = arg('calls', 30);
const SPIN_CORES = process.argv.includes('--spin');
const uptime = (): string => execFileSync('uptime', { encoding: 'utf8' }).trim();
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

function startMcp(tasksDir: string): Promise<{ url: string; token: string; child: ChildProcess }> {
  const cli = join(process.cwd(), 'src', 'main', 'cli', 'splatlab.mjs');
  const logDir = mkdtempSync(join(tmpdir(), 'splatlab-mcp-bench-'));
  // SPLATLAB_MCP_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=DIR') go to the server's node, for profiling it.
  const nodeArgs = (process.env.SPLATLAB_MCP_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, cli, 'mcp', '--http', '--port', '0', '--tasks', tasksDir, '--task', 'test__sculpt', '--device', 'cpu', '--no-lpips', '--log-dir', logDir], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  timeouts: number;
  lost: string[];
  ms: Map<string, number[]>;
}

async function session(url: string, token: string, s: number, tally: Tally): Promise<void> {
  const client = new Client({ name: `bench-${s}`, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  const call = async (name: string, args: Record<string, unknown>): Promise<void> => {
    const t0 = performance.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
        if (r.isError && /503|busy|Retry/i.test(JSON.stringify(r.content)) && attempt < 20) {
          tally.retried += 1;
          continue;
        }
        tally.answered += 1;
        tally.ms.set(name, [...(tally.ms.get(name) ?? []), performance.now() - t0]);
        return;
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        // Backpressure is an answer (503 + Retry-After): the same request_id again is charged once.
        if (/503/.test(msg) && attempt < 20) {
          tally.retried += 1;
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
        if (/timed out|-32001/i.test(msg)) tally.timeouts += 1;
        else tally.lost.push(`${name}: ${msg.split('\n')[0]}`);
        return;
      }
    }
  };
  await call('start_episode', {});
  for (let i = 1; i < CALLS; i++) {
    const g = { pos: [Math.sin(i + s) * 0.4, Math.cos(i + s) * 0.4, 0.05 * (i % 3)], scale: 0.06, color: '#a05030' };
    const request_id = `s${s}-c${i}`;
    if (i % 3 === 1) await call('add_gaussians', { gaussians: [g], request_id });
    else if (i % 3 === 2) await call('list_gaussians', { request_id });
    else await call('render_views', { views: [0, 1], request_id });
  }
  await client.close();
}

/** A process that keeps one core busy and ends when this bench does (its parent changes). */
const SPIN = 'const p = process.ppid; for (let i = 0; ; i++) if ((i & 0xfffff) === 0 && process.ppid !== p) process.exit(0);';

const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-mcp-bench-tasks-')), 'tasks');
await buildTestTask(tasksDir, { size: 128, grader: await Grader.create({ lpipsDir: null }) });
const mcp = await startMcp(tasksDir);
const spinners = Array.from({ length: SPIN_CORES ? availableParallelism() : 0 }, () => spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }));
await new Promise((r) => setTimeout(r, 2000));
const loadBefore = uptime();
const tally: Tally = { answered: 0, retried: 0, timeouts: 0, lost: [], ms: new Map() };
const t0 = performance.now();
try {
  await Promise.all(Array.from({ length: SESSIONS }, (_, s) => session(mcp.url, mcp.token, s, tally)));
} finally {
  for (const s of spinners) s.kill('SIGKILL');
  mcp.child.kill('SIGTERM');
}
const wall = (performance.now() - t0) / 1000;
const spun = SPIN_CORES ? `1 spinning process per core, ${availableParallelism()} cores` : 'no spinners';
process.stdout.write(`Load before (${spun}): ${loadBefore}\nLoad after: ${uptime()}\n\n`);
process.stdout.write('| sessions x calls | answered | retried after 503 | timeouts | lost | wall s |\n|---|---|---|---|---|---|\n');
process.stdout.write(`| ${SESSIONS} x ${CALLS} | ${tally.answered} | ${tally.retried} | **${tally.timeouts}** | **${tally.lost.length}** | ${wall.toFixed(1)} |\n\n`);
process.stdout.write('| tool | calls | p50 ms | p99 ms | max ms |\n|---|---|---|---|---|\n');
for (const [name, ms] of tally.ms) process.stdout.write(`| ${name} | ${ms.length} | ${pct(ms, 0.5).toFixed(0)} | ${pct(ms, 0.99).toFixed(0)} | ${Math.max(...ms).toFixed(0)} |\n`);
for (const l of tally.lost.slice(0, 5)) process.stdout.write(`- lost: ${l}\n`);
process.exit(0);
