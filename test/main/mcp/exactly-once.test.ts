// Exactly-once over MCP (request_id on every episode tool, get_result) and the RL protocol
// (/step request_id, /result): a retry with the same id returns the stored result and charges
// nothing; a lost reply can be asked for; an id never sent is said to be unknown; numbers no tool
// can use are refused before any charge (issue #29 items 2 and 11).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRlServer, type RlServer } from '../../../src/main/eval/rl-http';
import { startMcpHttp, type McpHttpServer } from '../../../src/main/mcp/http';
import { testTasks } from '../env/fixtures';

const TOKEN = 'once-token';
let mcp: McpHttpServer;
let rl: RlServer;

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  const logDir = mkdtempSync(join(tmpdir(), 'splatlab-once-'));
  mcp = await startMcpHttp({ tasksDir, grader: async () => grader, logDir, version: '0', task: 'test__sculpt' }, { token: TOKEN });
  rl = await startRlServer({ tasksDir, grader: async () => grader, logDir, version: '0' }, { token: TOKEN });
});
afterAll(async () => {
  await mcp?.close();
  await rl?.close();
});

const add = { gaussians: [{ pos: [0, 0, 0], color: '#806040', scale: 0.2 }] };

describe('exactly-once over MCP', () => {
  it('answers a retry and get_result from the ledger, charged once', async () => {
    const client = new Client({ name: 'once', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Record<string, unknown> };
    const first = await call('add_gaussians', { ...add, request_id: 'm-1' });
    expect(first.structuredContent).toMatchObject({ ok: true, step: 1 });
    const retry = await call('add_gaussians', { ...add, request_id: 'm-1' });
    expect(retry.structuredContent).toMatchObject({ ok: true, step: 1, recalled: true });
    expect(retry.content).toEqual(first.content);
    const asked = await call('get_result', { request_id: 'm-1' });
    expect(asked.structuredContent).toMatchObject({ step: 1, recalled: true });
    const unknown = await call('get_result', { request_id: 'never-sent' });
    expect(unknown.structuredContent).toEqual({ found: false });
    // Refused before any charge: a number no tool can use, a malformed id.
    const huge = await call('render_angle', { azimuth: 1e308, elevation: 0 });
    expect(huge.isError).toBe(true);
    expect(JSON.stringify(huge.content)).toContain('nothing was charged');
    expect((await call('add_gaussians', { ...add, request_id: 'has space' })).isError).toBe(true);
    const next = await call('add_gaussians', add);
    expect(next.structuredContent).toMatchObject({ step: 2, budgets: { callsLeft: 38 } });
    await client.close();
  });
});

describe('exactly-once over the RL protocol', () => {
  const post = async (path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${rl.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  it('answers a retry and /result from the ledger, charged once', async () => {
    const id = (await post('/reset', { task_id: 'test__sculpt' })).json.episode_id as string;
    const first = await post('/step', { episode_id: id, tool: 'add_gaussians', args: add, request_id: 'r-1' });
    expect(first.json).toMatchObject({ step: 1, error: false });
    const retry = await post('/step', { episode_id: id, tool: 'add_gaussians', args: add, request_id: 'r-1' });
    expect(retry.json).toMatchObject({ step: 1, recalled: true, text: first.json.text });
    expect(await post('/result', { episode_id: id, request_id: 'r-1' })).toMatchObject({ status: 200, json: { found: true, step: 1, recalled: true } });
    expect(await post('/result', { episode_id: id, request_id: 'r-2' })).toMatchObject({ status: 200, json: { found: false } });
    const huge = await fetch(`${rl.url}/step`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: `{"episode_id":"${id}","tool":"render_angle","args":{"azimuth":1e400,"elevation":0}}` });
    expect(huge.status).toBe(400);
    const next = await post('/step', { episode_id: id, tool: 'add_gaussians', args: add });
    expect(next.json).toMatchObject({ step: 2, budgets: { callsLeft: 38 } });
  });

  it('recovers every call whose connection was cut mid-request, each charged once', async () => {
    const id = (await post('/reset', { task_id: 'test__sculpt' })).json.episode_id as string;
    const steps: number[] = [];
    for (let i = 0; i < 20; i++) {
      const body = { episode_id: id, tool: 'add_gaussians', args: { gaussians: [{ pos: [0.01 * i, 0, 0], color: '#808080' }] }, request_id: `cut-${i}` };
      const abort = new AbortController();
      const sent = fetch(`${rl.url}/step`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(body), signal: abort.signal }).catch(() => null);
      await new Promise((r) => setTimeout(r, i % 3));
      abort.abort();
      await sent;
      const known = await post('/result', { episode_id: id, request_id: body.request_id });
      const out = known.json.found ? known : await post('/step', body);
      steps.push(out.json.step as number);
    }
    expect(steps).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const last = await post('/step', { episode_id: id, tool: 'add_gaussians', args: add });
    expect(last.json).toMatchObject({ step: 21, budgets: { callsLeft: 19 } });
  });
});
