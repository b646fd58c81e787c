// Seeds and caps (docs/AGENTS.md "Seeds", "Caps"): the seeded scripted player gives byte-identical
// trajectories (less times) for the same seed and different ones for another seed; the header's
// start time is step 0's; a cap ends the episode as truncated in the trajectory, the eval meta, the
// RL reply and an MCP result, while submit ends it as terminated.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { EvalConfigSchema } from '../../../src/main/models/config';
import { runEpisode } from '../../../src/main/eval/episode';
import { startRlServer } from '../../../src/main/eval/rl-http';
import { episodeSeed, makeClient, parseModelSpec } from '../../../src/main/models/spec';
import { readTrajectory } from '../../../src/main/env/trajectory';
import { startMcpHttp } from '../../../src/main/mcp/http';
import { testTask, testTasks, tmpLog } from '../env/fixtures';

/** A log's lines with every time field (t, ms, started) and the per-call request id (a transport nonce, docs/SECURITY.md "Exactly-once calls") blanked, as bytes to compare. */
function lessTimes(path: string): string {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const r = JSON.parse(l) as Record<string, unknown>;
      for (const k of ['t', 'ms', 'started', 'request_id']) if (k in r) r[k] = 0;
      return JSON.stringify(r);
    })
    .join('\n');
}

async function play(seed: number, caps?: Record<string, number>): Promise<{ log: string; meta: Awaited<ReturnType<typeof runEpisode>> }> {
  const { grader } = await testTasks();
  const task = await testTask('test__sculpt');
  const spec = { ...parseModelSpec('scripted:random'), seed };
  const config = EvalConfigSchema.parse(caps ? { caps } : {});
  const log = tmpLog('seeded.jsonl');
  const s = episodeSeed(spec, 'test__sculpt', 1);
  const meta = await runEpisode({ jobId: 'seeded', task, run: 1, spec, log }, { grader, config, client: () => makeClient(spec, config, {}, s) });
  return { log, meta };
}

describe('seeds', () => {
  it('the same seed gives the same trajectory less times; another seed another', async () => {
    const a = await play(7);
    const b = await play(7);
    const c = await play(8);
    expect(lessTimes(a.log)).toBe(lessTimes(b.log));
    // The calls themselves differ, not only the header's seed.
    const calls = (log: string): string => lessTimes(log).split('\n').slice(1).join('\n');
    expect(calls(a.log)).not.toBe(calls(c.log));
    const t = readTrajectory(a.log);
    expect(t.header?.seed).toBe(episodeSeed({ ...parseModelSpec('scripted:random'), seed: 7 }, 'test__sculpt', 1));
    expect(t.steps.length).toBeGreaterThan(2);
    // The header's start is step 0's time (not after the first grade).
    expect(t.header?.started).toBe(t.steps[0].t);
  }, 120_000);
});

describe('caps end an episode as truncated everywhere', () => {
  it('eval: max_messages cuts the run; the end record and the meta say so', async () => {
    const { log, meta } = await play(3, { max_messages: 2 });
    const end = readTrajectory(log).end;
    expect(end).toMatchObject({ reason: 'cap', cap: 'max_messages', ending: 'truncated' });
    expect(meta.truncated_by).toBe('max_messages');
    expect(meta.turns).toBe(2);
  }, 60_000);

  it('RL: a reset with caps truncates at the cap; submit terminates', async () => {
    const { tasksDir, grader } = await testTasks();
    const logDir = mkdtempSync(join(tmpdir(), 'splatlab-rl-caps-'));
    const server = await startRlServer({ tasksDir, grader: async () => grader, logDir, version: '0' }, { token: 't' });
    const post = async (path: string, body: unknown): Promise<Record<string, unknown>> =>
      (await (await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: JSON.stringify(body) })).json()) as Record<string, unknown>;
    try {
      const capped = await post('/reset', { task_id: 'test__sculpt', seed: 5, caps: { max_messages: 1 } });
      expect(capped).toMatchObject({ seed: 5, terminated: false, truncated: false });
      const cut = await post('/step', { episode_id: capped.episode_id, tool: 'describe_groups', args: {} });
      expect(cut).toMatchObject({ done: true, terminated: false, truncated: true, end_reason: 'cap', outcome: { status: 'ok', code: 'ok' } });
      expect(typeof cut.reward).toBe('number');
      const free = await post('/reset', { task_id: 'test__sculpt' });
      const bad = await post('/step', { episode_id: free.episode_id, tool: 'add_gaussians', args: '{"gaussians": [' });
      expect(bad).toMatchObject({ error: true, outcome: { status: 'refused', code: 'invalid_json' } });
      expect(bad.text).toMatch(/^ERROR: nothing was added\. the arguments are not valid JSON/);
      const end = await post('/step', { episode_id: free.episode_id, tool: 'submit', args: {} });
      expect(end).toMatchObject({ done: true, terminated: true, truncated: false, end_reason: 'submit' });
    } finally {
      await server.close();
    }
  }, 60_000);

  it('MCP: --max-messages ends the episode as truncated in the structured result and the log', async () => {
    const { tasksDir, grader } = await testTasks();
    const logDir = mkdtempSync(join(tmpdir(), 'splatlab-mcp-caps-'));
    const server = await startMcpHttp({ tasksDir, grader: async () => grader, logDir, version: '0', caps: { max_messages: 2 } }, { token: 'tok' });
    const client = new Client({ name: 'caps', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: 'Bearer tok' } } }));
      await client.callTool({ name: 'start_episode', arguments: { task_id: 'test__sculpt' } });
      const first = (await client.callTool({ name: 'describe_groups', arguments: {} })) as CallToolResult;
      expect(first.structuredContent).toMatchObject({ done: false, ending: null });
      const nameless = (await client.callTool({ name: '', arguments: {} })) as CallToolResult;
      expect(nameless.isError).toBe(true);
      expect(nameless.structuredContent).toMatchObject({ done: true, ending: 'truncated', endReason: 'cap', outcome: { code: 'no_tool_name' } });
      const text = nameless.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      expect(text).toMatch(/^ERROR: the call names no tool/);
      expect(text).toMatch(/max_messages cap \(2\) was reached/);
      await client.close();
      const { readdirSync } = await import('node:fs');
      const end = readTrajectory(join(logDir, readdirSync(logDir)[0])).end;
      expect(end).toMatchObject({ reason: 'cap', cap: 'max_messages', ending: 'truncated' });
    } finally {
      await server.close();
    }
  }, 60_000);
});
