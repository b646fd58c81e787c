// `splatlab serve --mcp` and `splatlab mcp --http`: MCP over Streamable HTTP at /mcp on loopback,
// one MCP session (and so one episode) per `Mcp-Session-Id`. Inputs: the session deps, a port, the
// session token. Output: a running server and its URL. Invariants: binds 127.0.0.1 only; every
// request passes the lab's one front door (src/main/transport/door.ts: a malformed URL is a 400,
// the token, `Authorization: Bearer TOKEN` or `?token=`, is checked first, a loopback Host, and a
// browser's Origin only from this server); sessions never share an environment; no request is
// lost to a reset under load (docs/SECURITY.md, "MCP over HTTP without losses"): idle sockets are
// kept longer than clients keep theirs, a slow call has no socket timeout, a body over the limit
// is a 413, and more sessions or calls in flight than the server takes are a 503 with
// Retry-After, answered at once, never a dropped connection.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { BodyTooLarge, frontDoor, readBody, RETRY_AFTER_S, sameToken, SERVER_OPTIONS, tuneServer } from '../transport/door';
import { COMMON_HEADERS } from '../transport/request';
import { createMcpSession, type McpSession, type McpSessionDeps } from './session';

export interface McpHttpOptions {
  port?: number;
  token: string;
  maxSessions?: number;
  /** Requests handled at once over all sessions; more are answered 503 with Retry-After. */
  maxInFlight?: number;
  /** Seconds without a request after which a session (and its episode) is closed; default 1800. */
  idleTimeoutS?: number;
  /** Milliseconds now, for the idle timeout (tests pass their own clock); default Date.now. */
  clock?: () => number;
  /** How often idle sessions are looked for; default a quarter of the timeout, 50 ms to 60 s. */
  sweepMs?: number;
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

/** The largest JSON-RPC body taken (a tool call with many Gaussians fits many times over). */
export const MAX_MCP_BODY = 4 * 1024 * 1024;

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

const busy = (res: ServerResponse, message: string): void => reply(res, 503, message, { 'retry-after': String(RETRY_AFTER_S) });

export async function startMcpHttp(deps: McpSessionDeps, options: McpHttpOptions): Promise<McpHttpServer> {
  const live = new Map<string, Live>();
  /** Sessions the idle sweep closed (a later request is told so; at most the last 4096 kept). */
  const idled = new Set<string>();
  const maxSessions = options.maxSessions ?? 64;
  const maxInFlight = options.maxInFlight ?? 256;
  let inFlight = 0;
  let port = 0;

  const drop = (id: string): void => {
    const s = live.get(id);
    if (!s) return;
    live.delete(id);
    s.session.close();
  };

  /** The JSON-RPC body of a POST (read under the limit), or undefined for GET and DELETE. */
  const body = async (req: IncomingMessage, res: ServerResponse): Promise<{ value: unknown } | null> => {
    if (req.method !== 'POST') return { value: undefined };
    try {
      const text = (await readBody(req, MAX_MCP_BODY)).toString('utf8');
      return { value: JSON.parse(text) as unknown };
    } catch (e) {
      if (e instanceof BodyTooLarge) reply(res, 413, e.message, { connection: 'close' });
      else reply(res, 400, 'the body is not JSON');
      return null;
    }
  };

  // Idle sessions are closed, so an abandoned client does not hold an episode and a slot for ever.
  const idleMs = (options.idleTimeoutS ?? 1800) * 1000;
  const clock = options.clock ?? Date.now;
  const sweep = setInterval(() => {
    const now = clock();
    for (const [id, s] of [...live]) {
      if (now - s.session.lastActivity() < idleMs) continue;
      drop(id);
      idled.add(id);
      if (idled.size > 4096) idled.delete(idled.values().next().value as string);
      void s.transport.close();
    }
  }, options.sweepMs ?? Math.min(60_000, Math.max(50, idleMs / 4)));
  sweep.unref();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const door = frontDoor(req, { port: () => port, credential: (given) => (sameToken(given, options.token) ? true : null) });
    if (!door.ok) return reply(res, door.status, door.status === 401 ? 'SplatLab: a valid session token is required' : `SplatLab: ${door.text}`);
    if (door.target.path !== '/mcp') return reply(res, 404, 'not found: the MCP endpoint is /mcp');
    const header = req.headers['mcp-session-id'];
    const sid = Array.isArray(header) ? header[0] : header;
    if (sid) {
      const s = live.get(sid);
      if (!s) return reply(res, 404, idled.has(sid) ? `MCP session '${sid}' was closed after ${idleMs / 1000} s without a request (start a new session; its episode's log can be resumed)` : `no MCP session '${sid}' (it ended or the server restarted)`);
      const parsed = await body(req, res);
      if (parsed) await s.transport.handleRequest(req, res, parsed.value);
      return;
    }
    if (req.method !== 'POST') return reply(res, 400, 'a request without Mcp-Session-Id must be an initialize POST');
    if (live.size >= maxSessions) return busy(res, `too many MCP sessions (at most ${maxSessions}); close one, or retry later`);
    const parsed = await body(req, res);
    if (!parsed) return;
    const session = createMcpSession(options.clock ? { ...deps, clock: options.clock } : deps);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void live.set(id, { transport, session }),
    });
    transport.onclose = () => {
      if (transport.sessionId) drop(transport.sessionId);
      else session.close();
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res, parsed.value);
    if (!transport.sessionId) session.close();
  };

  const http = createServer(SERVER_OPTIONS, (req, res) => {
    // Backpressure: past the limit a request is answered 503 at once (the client retries), so
    // work never piles up until sockets time out or are reset.
    if (inFlight >= maxInFlight) return busy(res, `the server is busy (${maxInFlight} requests in flight); retry in ${RETRY_AFTER_S} s`);
    inFlight += 1;
    let counted = true;
    const release = (): void => {
      if (counted) inFlight -= 1;
      counted = false;
    };
    res.once('close', release);
    handle(req, res).catch((e: Error) => {
      deps.log?.(`MCP request failed: ${e.message}`);
      if (!res.headersSent) reply(res, 500, e.message);
    });
  });
  tuneServer(http);
  port = await new Promise<number>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', 511, () => {
      http.off('error', reject);
      http.on('error', () => undefined);
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
