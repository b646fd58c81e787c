// The standalone `splatlab mcp --http` renders search observations on a worker pool, not on the
// thread that answers the sessions (issue 27, "Processes"): the server names its view renderer as
// the CPU tile rasterizer on its worker threads, and a search episode played through it gets its
// first view as PNG image content.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const TASK = 'search__room-10__color-1-1';

describe('splatlab mcp --http', () => {
  it('renders search views on its worker pool', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'src/main/cli/splatlab.mjs'), 'mcp', '--http', '--port', '0', '--token', 'views-token', '--device', 'cpu', '--no-lpips', '--tasks', join(ROOT, 'tasks'), '--log-dir', mkdtempSync(join(tmpdir(), 'splatlab-mcp-views-'))], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let err = '';
      const url = await new Promise<string>((res, rej) => {
        child.stderr.on('data', (d: Buffer) => {
          err += String(d);
          const m = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
          if (m) res(m[1]);
        });
        child.once('exit', (code) => rej(new Error(`mcp --http exited with ${code}:\n${err}`)));
      });
      expect(err).toMatch(/search views: the CPU tile rasterizer on \d+ worker threads?/);
      const client = new Client({ name: 'views', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer views-token' } } }));
      const start = (await client.callTool({ name: 'start_episode', arguments: { task_id: TASK } })) as CallToolResult;
      expect(start.isError).toBeFalsy();
      const image = start.content.find((c) => c.type === 'image');
      expect(image?.mimeType).toBe('image/png');
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
  }, 180_000);
});
