// `splatlab serve --mcp`: MCP over Streamable HTTP at /mcp on loopback, one MCP session (and so
// one episode) per `Mcp-Session-Id`. Inputs: the session deps, a port, the session token.
// Output: a running server and its URL. Invariants: binds 127.0.0.1 only; every request needs
// the token (`Authorization: Bearer TOKEN` or `?token=`) and a loopback Host (no DNS rebinding),
// as the lab's WebSocket does; sessions never share an environment; at most maxSessions live.
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpSession, type McpSession, type McpSessionDeps } from './session';

export interface McpHttpOptions {
  port?: number;
  token: string;
  maxSessions?: number;
  /** Seconds without a request after which a session (and its episode) is closed; default 1800. */
  idleTimeoutS?: number;
}

export interface McpHttpServer {
  url: string; // without the token
  port: number;
  sessions(): number;
  close(): Promise<void>;
}

interface Live {
  transport: StreamableHTTPServerTransport;
  session: McpSession;
}

function tokenOf(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  return new URL(req.url ?? '/', 'http://localhost').searchParams.get('token');
}

function same(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function loopbackHost(host: string | undefined): boolean {
  const name = (host ?? '').replace(/:\d+$/, '');
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export async function startMcpHttp(deps: McpSessionDeps, options: McpHttpOptions): Promise<McpHttpServer> {
  const live = new Map<string, Live>();
  const maxSessions = options.maxSessions ?? 64;

  const drop = (id: string): void => {
    const s = live.get(id);
    if (!s) return;
    live.delete(id);
    s.session.close();
  };

  // Idle sessions are closed, so an abandoned client does not hold an episode and a slot for ever.
  const idleMs = (options.idleTimeoutS ?? 1800) * 1000;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of [...live]) {
      if (now - s.session.lastActivity() < idleMs) continue;
      drop(id);
      void s.transport.close();
    }
  }, Math.min(60_000, Math.max(50, idleMs / 4)));
  sweep.unref();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    if (!loopbackHost(req.headers.host) || !same(tokenOf(req), options.token)) return reply(res, 401, 'SplatLab: a valid session token is required');
    const header = req.headers['mcp-session-id'];
    const sid = Array.isArray(header) ? header[0] : header;
    if (sid) {
      const s = live.get(sid);
      if (!s) return reply(res, 404, `no MCP session '${sid}' (it ended or the server restarted)`);
      return s.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'a request without Mcp-Session-Id must be an initialize POST');
    if (live.size >= maxSessions) return reply(res, 503, `too many MCP sessions (at most ${maxSessions}); close one first`);
    const session = createMcpSession(deps);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void live.set(id, { transport, session }),
    });
    transport.onclose = () => {
      if (transport.sessionId) drop(transport.sessionId);
      else session.close();
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res);
    if (!transport.sessionId) session.close();
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((e: Error) => {
      deps.log?.(`MCP request failed: ${e.message}`);
      if (!res.headersSent) reply(res, 500, e.message);
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      const a = http.address();
      resolve(typeof a === 'object' && a ? a.port : 0);
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    sessions: () => live.size,
    close: async () => {
      clearInterval(sweep);
      for (const [id, s] of [...live]) {
        drop(id);
        await s.transport.close();
      }
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
