// Models play search tasks (issue 15 item 5): through `runEpisode` (the path of `splatlab eval`)
// with the scripted client, the first observation's 512x512 image and the search tools reach the
// client with the search prompt, `stop` ends the episode and the log regrades identically; over
// MCP, start_episode on a search task sends the image, the tool list becomes the search kind's,
// and stop ends the episode.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ScriptedClient } from '../../../../src/main/models/clients/scripted';
import type { ModelClient, ModelTurn, ToolResult, ToolSpec } from '../../../../src/main/models/clients/types';
import { EvalConfigSchema } from '../../../../src/main/models/config';
import { runEpisode } from '../../../../src/main/eval/episode';
import { SEARCH_SYSTEM_PROMPT } from '../../../../src/shared/kinds/search/kind';
import { parseModelSpec } from '../../../../src/main/models/spec';
import { readTrajectory } from '../../../../src/main/env/trajectory';
import { loadAnyTask } from '../../../../src/main/kinds/registry';
import { startMcpHttp } from '../../../../src/main/mcp/http';
import type { SearchTask } from '../../../../src/main/kinds/search/env';
import { regradeSearch } from '../../../../src/main/kinds/search/regrade';
import { SEARCH_TOOL_NAMES } from '../../../../src/shared/kinds/search/tools';
import { searchTasksDir } from './study-fixture';

/** The scripted client, recording what the runner sends it. */
class Recording implements ModelClient {
  readonly inner = new ScriptedClient('basic');
  system = '';
  image: Uint8Array | undefined;
  tools: string[] = [];
  resultImages: boolean[] = [];
  start(system: string, text: string, image: Uint8Array | undefined, tools: ToolSpec[]): void {
    this.system = system;
    this.image = image;
    this.tools = tools.map((t) => t.name);
    this.inner.start(system, text, image, tools);
  }
  next(): Promise<ModelTurn> {
    return this.inner.next();
  }
  results(results: ToolResult[]): void {
    this.resultImages.push(...results.map((r) => r.image !== undefined));
  }
  say(text: string): void {
    this.inner.say(text);
  }
}

const isPng = (b: Uint8Array | undefined) => b !== undefined && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;

describe('models play search tasks', () => {
  it('runs a scripted episode as splatlab eval does: image, search tools, stop ends it, the log regrades', async () => {
    const tasksDir = searchTasksDir();
    const task = await loadAnyTask('search__t1', { tasksDir });
    const log = join(mkdtempSync(join(tmpdir(), 'splatlab-search-eval-')), 'search__t1__r1.jsonl');
    const client = new Recording();
    const meta = await runEpisode({ jobId: 'j1', task, run: 1, spec: parseModelSpec('scripted:basic'), log }, { grader: undefined as never, config: EvalConfigSchema.parse({}), client: () => client });
    expect(meta).toMatchObject({ status: 'done', turns: 3, invalid_calls: 0, auto_submitted: false });
    expect(client.system).toBe(SEARCH_SYSTEM_PROMPT);
    expect(isPng(client.image)).toBe(true);
    expect(client.tools).toEqual([...SEARCH_TOOL_NAMES]);
    expect(client.resultImages).toEqual([true, true, true]);
    const traj = readTrajectory(log);
    expect(traj.steps.map((s) => s.tool)).toEqual(['reset', 'turn_left', 'move_forward', 'stop']);
    expect(traj.end).toMatchObject({ reason: 'stop', answer: 'red', correct: true, steps: 3 });
    expect(regradeSearch(task as SearchTask, traj).problems).toEqual([]);
  }, 60_000);

  it('plays over MCP: the image, the search tool list, stop ends the episode', async () => {
    const tasksDir = searchTasksDir();
    const logDir = mkdtempSync(join(tmpdir(), 'splatlab-search-mcp-'));
    const token = 'search-token-0123456789';
    const server = await startMcpHttp({ tasksDir, grader: async () => ({}) as never, logDir, version: '0.0.0-test' }, { token });
    try {
      const client = new Client({ name: 'search-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
      const first = (await client.callTool({ name: 'start_episode', arguments: { task_id: 'search__t1' } })) as CallToolResult;
      expect(first.content.some((c) => c.type === 'image' && c.mimeType === 'image/png')).toBe(true);
      expect(first.isError).toBe(false);
      expect(first.content.map((c) => (c.type === 'text' ? c.text : '')).join('')).toContain('What colour is the cube?');
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const t of SEARCH_TOOL_NAMES) expect(tools).toContain(t);
      expect(tools).not.toContain('add_gaussians');
      const turn = (await client.callTool({ name: 'turn_left', arguments: {} })) as CallToolResult;
      expect(turn.content.some((c) => c.type === 'image')).toBe(true);
      const stop = (await client.callTool({ name: 'stop', arguments: { answer: 'red' } })) as CallToolResult;
      expect(stop.structuredContent).toMatchObject({ ok: true, done: true });
      await client.close();
      const file = readdirSync(logDir, { recursive: true }).map(String).find((f) => f.endsWith('.jsonl')) ?? '';
      const traj = readTrajectory(join(logDir, file));
      expect(traj.end).toMatchObject({ reason: 'stop', answer: 'red', steps: 2 });
      expect(regradeSearch((await loadAnyTask('search__t1', { tasksDir })) as SearchTask, traj).problems).toEqual([]);
    } finally {
      server.close();
    }
  }, 60_000);
});
