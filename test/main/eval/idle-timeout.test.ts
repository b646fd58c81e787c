// Idle timeouts of agent sessions (docs/AGENTS.md, --idle-timeout-s): an RL episode and an MCP
// session (HTTP and stdio) without a request for the timeout are closed, and a later request is
// told so by name; a call still in flight is never cut off, however long it runs. No timing is
// asserted: the HTTP servers run on an injected clock the test moves (sweeping every 20 ms), and
// each test polls for the effect; the stdio process has a tiny timeout and is waited for.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { startRlServer } from '../../../src/main/eval/rl-http';
import { startMcpHttp } from '../../../src/main/mcp/http';
import type { EnvGrader } from '../../../src/main/env/types';
import { testTasks } from '../env/fixtures';

const TOKEN = 'idle-token';
const CLI = resolve(__dirname, '../../../src/main/cli/splatlab.mjs');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls (every 50 ms, for up to a minute) until `probe` says the effect happened. */
async function pollUntil(probe: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 1200; i++) {
    if (await probe()) return true;
    await sleep(50);
  }
  return false;
}

/** A clock the test moves (milliseconds). */
function fakeClock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

/** A grader whose renders wait until released (a slow call, held as long as the test likes). The
 * hidden grade is deferred off the call (src/main/workers/grade-queue.ts), so a slow call is one
 * whose own work is slow: a render. */
function heldGrader(inner: EnvGrader): { grader: EnvGrader; hold(): void; release(): void; holding(): boolean } {
  let gate: { promise: Promise<void>; open: () => void } | null = null;
  let waiting = false;
  const wait = async (): Promise<void> => {
    if (!gate) return;
    waiting = true;
    await gate.promise;
  };
  return {
    grader: {
      renderViews: async (s, c) => {
        await wait();
        return inner.renderViews(s, c);
      },
      compareViews: async (s, v) => {
        await wait();
        return inner.compareViews(s, v);
      },
      grade: (task, splats, options) => inner.grade(task, splats, options),
    },
    hold() {
      let open = (): void => undefined;
      const promise = new Promise<void>((r) => (open = r));
      gate = { promise, open };
    },
    release() {
      gate?.open();
      gate = null;
    },
    holding: () => waiting,
  };
}

describe('RL episodes', () => {
  it('an idle episode is closed and a later request says so; a slow call is not cut off', async () => {
    const { tasksDir, grader } = await testTasks();
    const held = heldGrader(grader);
    const clock = fakeClock();
    const rl = await startRlServer({ tasksDir, grader: async () => held.grader, logDir: mkdtempSync(join(tmpdir(), 'splatlab-idle-rl-')), version: '0', idleTimeoutS: 60, clock: clock.now, sweepMs: 20 }, { token: TOKEN });
    const post = async (path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
      const res = await fetch(`${rl.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    try {
      const a = (await post('/reset', { task_id: 'test__sculpt' })).json.episode_id as string;
      // Used within the timeout, it stays open.
      clock.advance(59_000);
      await sleep(200);
      expect((await post('/step', { episode_id: a, tool: 'list_gaussians', args: {} })).status).toBe(200);
      // A call whose render is held while the clock passes many timeouts is answered, not closed under it.
      held.hold();
      const slow = post('/step', { episode_id: a, tool: 'render_views', args: { views: ['V0'] } });
      expect(await pollUntil(async () => held.holding())).toBe(true);
      clock.advance(600_000);
      await sleep(200); // sweeps run meanwhile (every 20 ms)
      held.release();
      const answered = await slow;
      expect(answered.status).toBe(200);
      expect(answered.json).toMatchObject({ error: false, done: false });
      // Its idle time starts when the call ends: the episode is still open.
      await sleep(200);
      expect((await post('/step', { episode_id: a, tool: 'list_gaussians', args: {} })).status).toBe(200);
      // Then left alone past the timeout, it is closed: the next request names the timeout.
      // Each probe is itself a request (it restarts the idle time when no sweep ran in between), so
      // every try first moves the clock past the timeout and leaves the sweeps time to run.
      let last = { status: 0, json: {} as Record<string, unknown> };
      const closed = async (): Promise<boolean> => {
        clock.advance(61_000);
        await sleep(100);
        last = await post('/reward', { episode_id: a });
        return last.status === 404;
      };
      expect(await pollUntil(closed)).toBe(true);
      expect(last.json.error).toBe(`episode '${a}' was closed after 60 s without a request (its log can be resumed)`);
      // An id that never was says that instead.
      expect((await post('/step', { episode_id: 'nope', tool: 'submit', args: {} })).json.error).toMatch(/^no episode 'nope'/);
    } finally {
      held.release();
      await rl.close();
    }
  }, 180_000);
});

describe('MCP sessions over HTTP', () => {
  it('an idle session is closed and a later request is told so', async () => {
    const { tasksDir, grader } = await testTasks();
    const clock = fakeClock();
    const mcp = await startMcpHttp({ tasksDir, grader: async () => grader, logDir: mkdtempSync(join(tmpdir(), 'splatlab-idle-mcp-')), version: '0', task: 'test__sculpt' }, { token: TOKEN, idleTimeoutS: 60, clock: clock.now, sweepMs: 20 });
    try {
      const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
      const client = new Client({ name: 'idle', version: '1' });
      await client.connect(transport);
      const sid = transport.sessionId as string;
      expect(sid).toBeTruthy();
      await client.callTool({ name: 'start_episode', arguments: {} });
      clock.advance(59_000);
      await sleep(200);
      expect((await client.callTool({ name: 'list_gaussians', arguments: {} })).isError).toBeFalsy();
      clock.advance(60_000);
      // Probe with a bare request of that session, as the client would send its next one.
      const probe = async (): Promise<{ status: number; text: string }> => {
        const res = await fetch(mcp.url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': sid, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }) });
        return { status: res.status, text: await res.text() };
      };
      let last = { status: 0, text: '' };
      expect(await pollUntil(async () => (last = await probe()).status === 404)).toBe(true);
      expect(last.text).toContain(`MCP session '${sid}' was closed after 60 s without a request`);
      await client.close().catch(() => undefined);
    } finally {
      await mcp.close();
    }
  }, 180_000);
});

describe('MCP over stdio', () => {
  it('a session without a request ends the process, saying why', async () => {
    const { tasksDir } = await testTasks();
    const child = spawn(process.execPath, [CLI, 'mcp', '--task', 'test__sculpt', '--tasks', tasksDir, '--device', 'cpu', '--no-lpips', '--log-dir', mkdtempSync(join(tmpdir(), 'splatlab-idle-stdio-')), '--idle-timeout-s', '0.05'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += String(d)));
    // stdin stays open: only the idle timeout can end it.
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    child.stdin.end();
    expect(err).toContain('no request for 0.05 s: closing the session');
    expect(code).toBe(0);
  }, 180_000);
});
