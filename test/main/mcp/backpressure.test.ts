// MCP over HTTP without losses (issue #29 item 3): past its limits the server answers at once with
// 503 and Retry-After (never a reset), keeps idle sockets longer than clients keep theirs, and sets
// no socket timeout on slow work.
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttp, type McpHttpServer } from '../../../src/main/mcp/http';
import { testTasks } from '../env/fixtures';

const TOKEN = 'bp-token';
let server: McpHttpServer;

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  server = await startMcpHttp({ tasksDir, grader: async () => grader, logDir: mkdtempSync(join(tmpdir(), 'splatlab-bp-')), version: '0' }, { token: TOKEN, maxSessions: 1, maxInFlight: 1 });
});
afterAll(() => server?.close());

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'bp', version: '1' } } });
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('MCP HTTP backpressure', () => {
  it('answers 503 with Retry-After past the session and in-flight limits, never a reset', async () => {
    const first = await fetch(server.url, { method: 'POST', headers, body: initialize });
    expect(first.status).toBe(200);
    const sid = first.headers.get('mcp-session-id') ?? '';
    await first.text();
    const second = await fetch(server.url, { method: 'POST', headers, body: initialize });
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('1');
    // A standing event stream holds the one request slot; the next request is told to retry.
    const stream = await new Promise<import('node:http').IncomingMessage>((resolve) => {
      request(server.url, { method: 'GET', headers: { ...headers, 'mcp-session-id': sid, accept: 'text/event-stream' } }, resolve).end();
    });
    expect(stream.statusCode).toBe(200);
    const busy = await fetch(server.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    stream.destroy();
    // Once the stream is gone the slot is free again.
    let again = 503;
    for (let i = 0; i < 50 && again === 503; i++) {
      again = (await fetch(server.url, { method: 'POST', headers: { ...headers, 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) })).status;
      if (again === 503) await new Promise((r) => setTimeout(r, 20));
    }
    expect(again).toBe(200);
  });
});
