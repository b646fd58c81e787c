// The MCP server through the SDK's own Client: tools listed from the zod schemas, a scripted
// episode played to the end over Streamable HTTP and over stdio (images as PNG image content),
// the trajectory identical in form to a human's, 16 concurrent sessions without cross-talk, and
// requests without the token refused.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrajectory, type Trajectory } from '../../../src/main/env/trajectory';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import { startMcpHttp, type McpHttpServer } from '../../../src/main/mcp/http';
import { TOOL_NAMES } from '../../../src/shared/kinds/splatbench/tools';
import { testTasks } from '../env/fixtures';

const TASK = 'test__sculpt';
const TOKEN = 'test-token-0123456789';
const CALLS: { tool: string; args: Record<string, unknown> }[] = [
  { tool: 'add_gaussians', args: { gaussians: [{ pos: [0, 0, 0], color: '#806040', scale: 0.2, group: 'body' }] } },
  { tool: 'add_gaussians', args: { gaussians: [{ pos: [9, 0, 0], color: '#806040' }] } },
  { tool: 'render_views', args: { views: [0, 'V1'] } },
  { tool: 'transform_group', args: { group: 'body', translate: [0, 0, 0.1] } },
  { tool: 'render_angle', args: { azimuth: 30, elevation: 10 } },
  { tool: 'submit', args: {} },
];
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64').slice(0, 4);

let server: McpHttpServer;
let logDir: string;

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  logDir = mkdtempSync(join(tmpdir(), 'splatlab-mcp-'));
  server = await startMcpHttp({ tasksDir, grader: async () => grader, logDir, version: '0.0.0-test' }, { token: TOKEN });
});
afterAll(() => server?.close());

async function httpClient(name: string): Promise<Client> {
  const client = new Client({ name, version: '1.2.3' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

const call = async (c: Client, tool: string, args: Record<string, unknown> = {}): Promise<CallToolResult> => (await c.callTool({ name: tool, arguments: args })) as CallToolResult;
const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
const images = (r: CallToolResult): string[] => r.content.flatMap((c) => (c.type === 'image' ? [`${c.mimeType}:${c.data.slice(0, 4)}`] : []));

/**
 * Records without what differs between two plays of the same calls (times, who, where, and the
 * interface aids a person's header lists: a model has no viewport to draw an overlay on).
 */
function form(t: Trajectory): unknown[] {
  // Aids and the live-episode fields (id, time limit) are a human session's, not the log's form.
  const { protocol_options: _aids, episode: _live, time_limit_s: _limit, ...rest } = t.header ?? {};
  const header = { ...rest, started: '', player: '', protocol: '' };
  return [header, ...t.steps.map((s) => ({ ...s, t: '', ms: 0 })), { ...t.end, t: '' }];
}

async function scripted(c: Client): Promise<{ results: CallToolResult[]; first: CallToolResult }> {
  const first = await call(c, 'start_episode', { task_id: TASK });
  const results: CallToolResult[] = [];
  for (const k of CALLS) results.push(await call(c, k.tool, k.args));
  return { results, first };
}

function checkScripted(first: CallToolResult, results: CallToolResult[]): void {
  expect(images(first)).toEqual([`image/png:${PNG}`]);
  expect(textOf(first)).toMatch(/\[0\/300 Gaussians \| calls left 40 \| renders left 16\]\s*$/);
  for (const r of results) expect(textOf(r)).toMatch(/\[\d+\/300 Gaussians \| calls left \d+ \| renders left \d+\]\s*$/);
  expect(results[0].structuredContent).toMatchObject({ ok: true, charged: true, step: 1, ids: [0], budgets: { callsLeft: 39 } });
  expect(results[1].structuredContent).toMatchObject({ ok: false, charged: true, step: 2, ids: [] });
  expect(results[1].isError).toBe(true);
  expect(textOf(results[1])).toMatch(/^ERROR/);
  expect(images(results[2])).toEqual([`image/png:${PNG}`]);
  expect(images(results[4])).toEqual([`image/png:${PNG}`]);
  expect(images(results[0])).toEqual([]);
  expect(textOf(results[5])).toContain('Submitted');
  for (const r of [first, ...results]) expect(textOf(r)).not.toMatch(/hidden|score|H\d/i);
}

async function humanLog(): Promise<Trajectory> {
  const { tasksDir, grader } = await testTasks();
  const home = mkdtempSync(join(tmpdir(), 'splatlab-home-'));
  const manager = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
  const snap = await manager.start({ taskId: TASK, protocol: 'free', player: 'P01' });
  for (const k of CALLS) await manager.step(snap.episodeId, k);
  const log = manager.info(snap.episodeId).logPath;
  manager.close(snap.episodeId);
  return readTrajectory(log);
}

describe('MCP server', () => {
  it('lists start_episode and every tool of the task with its JSON Schema', async () => {
    const c = await httpClient('lister');
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['start_episode', ...TOOL_NAMES, 'get_result']);
    const add = tools.find((t) => t.name === 'add_gaussians');
    expect(add?.inputSchema.required).toEqual(['gaussians']);
    expect(JSON.stringify(add?.inputSchema)).toContain('#rrggbb');
    await c.close();
  });

  it('plays a scripted episode over Streamable HTTP; the log matches a human log in form', async () => {
    const c = await httpClient('scripted-http');
    const { first, results } = await scripted(c);
    checkScripted(first, results);
    const after = await call(c, 'list_gaussians');
    expect(textOf(after)).toMatch(/^ERROR: the episode is over/);
    await c.close();
    const logs = readdirLogs().filter((t) => t.header?.player === 'scripted-http/1.2.3');
    expect(logs).toHaveLength(1);
    const mine = logs[0];
    expect(mine.header?.protocol).toBe('agent');
    expect(mine.end?.reason).toBe('submit');
    expect(form(mine)).toEqual(form(await humanLog()));
  });

  it('keeps 16 concurrent sessions apart', async () => {
    const clients = await Promise.all(Array.from({ length: 16 }, (_, i) => httpClient(`par-${i}`)));
    await Promise.all(clients.map((c) => call(c, 'start_episode', { task_id: TASK })));
    await Promise.all(clients.map((c, i) => call(c, 'add_gaussians', { gaussians: Array.from({ length: i + 1 }, () => ({ pos: [0, 0, i / 20], color: '#102030', group: `s${i}` })) })));
    const lists = await Promise.all(clients.map((c) => call(c, 'list_gaussians')));
    lists.forEach((r, i) => {
      const rows = textOf(r).split('\n').filter((l) => /group/.test(l) || /\bs\d+\b/.test(l));
      expect(textOf(r)).toContain(`[${i + 1}/300 Gaussians`);
      for (const row of rows) expect(row).not.toMatch(new RegExp(`\\bs(?!${i}\\b)\\d+\\b`));
      expect(textOf(r)).toContain(`s${i}`);
    });
    expect(server.sessions()).toBeGreaterThanOrEqual(16);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('refuses requests without the token', async () => {
    const res = await fetch(server.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    const bad = new Client({ name: 'x', version: '0' });
    await expect(bad.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: 'Bearer wrong' } } }))).rejects.toThrow();
  });

  it('plays the scripted episode over stdio (splatlab mcp)', async () => {
    const { tasksDir } = await testTasks();
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-mcp-stdio-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [resolve('src/main/cli/splatlab.mjs'), 'mcp', '--task', TASK, '--tasks', tasksDir, '--log-dir', dir, '--device', 'cpu', '--no-lpips'],
      stderr: 'pipe',
    });
    const c = new Client({ name: 'scripted-stdio', version: '9.9' });
    await c.connect(transport);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['start_episode', ...TOOL_NAMES, 'get_result']);
    const { first, results } = await scripted(c);
    checkScripted(first, results);
    await c.close();
    const t = readdirLogs(dir)[0];
    expect(t.header?.player).toBe('scripted-stdio/9.9');
    expect(t.steps.map((s) => s.tool)).toEqual(['reset', ...CALLS.map((k) => k.tool)]);
    expect(t.end?.reason).toBe('submit');
  }, 60_000);
});

function readdirLogs(dir = logDir): Trajectory[] {
  return readdirSyncJsonl(dir).map((f) => readTrajectory(join(dir, f)));
}

function readdirSyncJsonl(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
}
