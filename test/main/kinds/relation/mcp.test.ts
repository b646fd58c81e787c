// Relation trials through the MCP server (the models' path): start_episode on a relation task
// gives the trial image and question, the tool list holds the kind's single `answer` tool, the
// answer ends the episode and the log's end record scores it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTrajectory } from '../../../../src/main/env/trajectory';
import { repoRoot } from '../../../../src/main/io/data-dir';
import { startMcpHttp, type McpHttpServer } from '../../../../src/main/mcp/http';
import { RelationEndSchema } from '../../../../src/shared/kinds/relation/kind';

const TOKEN = 'relation-token-0123456789';
const TASK = 'relation__winter_town__tree-deer__allo';
let server: McpHttpServer;
let logDir: string;

beforeAll(async () => {
  logDir = mkdtempSync(join(tmpdir(), 'splatlab-mcp-relation-'));
  // Relation episodes never grade scenes: the session gets a grader it never calls.
  server = await startMcpHttp({ tasksDir: join(repoRoot(), 'tasks'), grader: async () => ({}) as never, logDir, version: '0.0.0-test' }, { token: TOKEN });
});
afterAll(() => {
  server?.close();
  rmSync(logDir, { recursive: true, force: true });
});

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('relation over MCP', () => {
  it('plays a trial: image and question, the answer tool, the scored end', async () => {
    const client = new Client({ name: 'relation-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const first = (await client.callTool({ name: 'start_episode', arguments: { task_id: TASK } })) as CallToolResult;
    expect(first.content.some((c) => c.type === 'image' && c.mimeType === 'image/png')).toBe(true);
    expect(textOf(first)).toMatch(/tree \(reference\).*deer \(target\)/);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('answer');
    const answer = (await client.listTools()).tools.find((t) => t.name === 'answer')!;
    expect(JSON.stringify(answer.inputSchema)).toMatch(/"front","back","left","right"/);
    const r = (await client.callTool({ name: 'answer', arguments: { relation: 'left' } })) as CallToolResult;
    expect(r.structuredContent).toMatchObject({ ok: true, done: true });
    expect(textOf(r)).not.toMatch(/correct|not quite|score/i);
    await client.close();
    const log = readdirSync(logDir, { recursive: true }).map(String).find((f) => f.endsWith('.jsonl'))!;
    const end = RelationEndSchema.parse(readTrajectory(join(logDir, log)).end);
    expect(end.trials[0]).toMatchObject({ answer: 'left', environment: 'winter_town', task: 'allo' });
    expect(end.score).toBe(end.trials[0].correct ? 100 : 0);
  });
});
