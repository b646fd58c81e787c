// The one front door of every HTTP server of the lab (`serve`, `mcp --http`, `rl`; docs/SECURITY.md,
// "The front door"): the request target is parsed by parseTarget (never throws: any malformed URL
// is a 400), then the token is checked before anything else looks at the request (no route, body
// or session is read for a request without it), then the Host (loopback only: no DNS rebinding)
// and the Origin (a browser's: ours only). Bodies are read under a limit and a body over it is
// answered 413 (drained first, so the client reads the answer instead of a reset); a busy server
// answers 503 with Retry-After. Inputs: the raw request and the server's rules. Outputs: the
// parsed target and the credential's value, or the answer already sent. Invariant: nothing here
// throws on any input, and every refusal is one line.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { COMMON_HEADERS, parseTarget, rawRefusal, type Target } from './request';

export interface DoorRules<T> {
  /** The port the server listens on (its own origins are http://127.0.0.1:PORT and the like). */
  port: () => number;
  /** The role a token gives (null: not a valid token). */
  credential: (token: string | null) => T | null;
  /** Paths anyone on loopback may read without the token (the built UI's files). */
  open?: (path: string) => boolean;
}

export type DoorOutcome<T> = { ok: true; target: Target; role: T | null } | { ok: false; status: 400 | 401 | 403; text: string };

/** The token a request presents: `Authorization: Bearer TOKEN` (the scheme in any case, RFC 9110), else `?token=`. */
export function presentedToken(req: IncomingMessage, target: Target): string | null {
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' ? /^bearer +(.+)$/i.exec(auth.trim()) : null;
  if (bearer) return bearer[1].trim();
  return target.query.get('token');
}

/** Constant-time comparison of a presented token with the expected one. */
export function sameToken(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function loopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '');
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

/**
 * Browsers send Origin on cross-origin requests and on every WebSocket: only pages served from
 * this server's own port may call it. Non-browser clients (CLI, agents, tests) send none.
 */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].includes(origin);
}

/** The front door's verdict on a request (nothing is sent here). */
export function frontDoor<T>(req: IncomingMessage, rules: DoorRules<T>): DoorOutcome<T> {
  const target = parseTarget(req.url);
  if (!target) return { ok: false, status: 400, text: 'bad request: malformed request target' };
  const role = rules.credential(presentedToken(req, target));
  if (role === null && !rules.open?.(target.path)) return { ok: false, status: 401, text: 'a valid session token is required' };
  if (!loopbackHost(req.headers.host)) return { ok: false, status: 403, text: 'a loopback Host header is required' };
  const origin = req.headers.origin;
  if (!originAllowed(typeof origin === 'string' ? origin : undefined, rules.port())) return { ok: false, status: 403, text: 'cross-origin request refused' };
  return { ok: true, target, role };
}

/** A JSON answer with the common headers. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/** Seconds a client is asked to wait when the server is busy. */
export const RETRY_AFTER_S = 1;

/** Most bytes of a refused body read (and dropped) so the client can read its 413. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
  }
}

/**
 * The request body, at most `limit` bytes. Over the limit (declared or sent) it rejects with
 * BodyTooLarge once the rest has been drained (up to 64 MiB), so the 413 the caller sends is
 * read by the client rather than lost in a connection reset.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      if (!over) chunks.push(c);
      else if (size > limit + DRAIN_LIMIT) {
        // Too much to drain: refuse now; what is left of the upload is cut off.
        req.removeAllListeners('data');
        req.pause();
        reject(new BodyTooLarge(limit));
      }
    });
    req.on('end', () => (over ? reject(new BodyTooLarge(limit)) : resolve(Buffer.concat(chunks))));
    req.on('error', reject);
    // A client that went away mid-body: nothing waits for an end that never comes.
    req.on('close', () => {
      if (!req.complete) reject(new Error('the request was cut off'));
    });
  });
}

export interface ServerTuning {
  /** Keep an idle connection this long (ms), longer than clients' own keep-alive, so the server never closes a socket a client is reusing. */
  keepAliveMs?: number;
}

/**
 * Timeouts for slow work on a loaded machine: a response may take minutes (no socket timeout),
 * headers must come within 30 s and a request within 2 minutes, idle keep-alive sockets stay
 * 65 s; a request the parser cannot read is a 400, never a thrown error.
 */
/**
 * Options for every lab HTTP server's createServer: Node checks the header and request timeouts
 * only every connectionsCheckingInterval (30 s by default), so a slow-header socket outlived its
 * header timeout by up to that much (issue 38); checked every second instead.
 */
export const SERVER_OPTIONS = { connectionsCheckingInterval: 1_000 } as const;

export function tuneServer(http: Server, tuning: ServerTuning = {}): void {
  http.keepAliveTimeout = tuning.keepAliveMs ?? 65_000;
  http.headersTimeout = 30_000;
  http.requestTimeout = 120_000;
  http.timeout = 0;
  http.on('clientError', (_err, socket: Duplex) => {
    if (socket.writable) socket.end(rawRefusal(400, 'bad request'));
    else socket.destroy();
  });
}
