// `splatlab serve`: the built UI over loopback HTTP and LabApi over a WebSocket at /lab.
// Inputs: handlers and events from src/main/services. Output: a running server and its URL.
// Invariants: binds 127.0.0.1 only; a WebSocket upgrade needs a valid token (the experimenter's
// random session token, or a participant-scoped token derived from it: roles.ts, which makes the
// connection a participant one), a loopback Host (no DNS rebinding) and, from a browser, our own
// Origin; every frame goes through dispatchText (size, JSON, depth, schema, role) within this
// connection's rate and in-flight limits; a socket receives only the events addressed to its
// own connection.
// No request or socket error can reach the process: every request passes the lab's one front door
// (./door.ts: a malformed URL is a 400, loopback Host and our own Origin), a protocol error closes
// only its socket, and a reply that cannot be serialised becomes an error envelope.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_MESSAGE_BYTES } from '../../shared/api/messages';
import { Connection, type ConnectionRole } from '../services/connection';
import { dispatchText } from '../services/dispatch';
import type { LabServices } from '../services/lab';
import { frontDoor, loopbackHost, originAllowed, SERVER_OPTIONS, tuneServer } from './door';
import { PARTICIPANT_LINK_CONNECTIONS } from '../services/roles';
import { ConnectionLimits, DEFAULT_LIMITS, type LimitOptions } from './limits';
import { parseTarget, rawRefusal, sendText } from './request';
import { serveStatic } from './static';
import { TurnQueue } from './turns';
import { peekRequestId } from '../services/peek-id';

export interface LabServer {
  url: string; // includes the token, for the person starting it
  port: number;
  token: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  port?: number; // 0 = any free port
  uiRoot: string; // folder holding the built renderer's index.html
  token?: string;
  limits?: LimitOptions;
  /** Most WebSocket connections open at once. */
  maxConnections?: number;
}

/** The largest frame the socket accepts: a frame over it closes the socket (1009), nothing else. */
export const MAX_FRAME_BYTES = 2 * MAX_MESSAGE_BYTES;

export async function startServer(services: LabServices, options: ServeOptions): Promise<LabServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  services.roles.useExperimenterToken(token);
  const credential = (given: string | null): ConnectionRole | null => services.roles.credential(given);
  let port = 0;
  const http = createServer(SERVER_OPTIONS, (req, res) => {
    // The UI's files need no token (the page brings it to the WebSocket); the rest of the door holds.
    const door = frontDoor(req, { port: () => port, credential, open: () => true });
    if (!door.ok) return sendText(res, door.status, door.text);
    serveStatic(options.uiRoot, req, res).catch(() => sendText(res, 500, 'internal error'));
  });
  // Slow or malformed clients: bounded header/request time, and a parse error is a 400.
  tuneServer(http);
  http.headersTimeout = 10_000;
  http.requestTimeout = 30_000;
  // Twice the message limit, so a frame somewhat over it still gets a readable "too large" answer
  // from dispatchText instead of the socket closing without a reason.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  wss.on('error', () => undefined);
  const sockets = new Set<WebSocket>();
  // Open sockets per link (the experimenter's token, each participant link): a participant link
  // holds at most a few and never the experimenter's slots.
  const perLink = new Map<string, number>();

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const cap = (role: ConnectionRole): { open: number; max: number } => {
      const link = services.roles.linkOf(role);
      return { open: perLink.get(link) ?? 0, max: role.role === 'participant' ? PARTICIPANT_LINK_CONNECTIONS : (options.maxConnections ?? 64) };
    };
    const refusal = refuseUpgrade(req, credential, port, cap);
    if ('status' in refusal) {
      socket.end(rawRefusal(refusal.status, refusal.text));
      return;
    }
    const link = services.roles.linkOf(refusal.role);
    perLink.set(link, (perLink.get(link) ?? 0) + 1);
    let counted = true;
    const uncount = (): void => {
      if (!counted) return;
      counted = false;
      const n = (perLink.get(link) ?? 1) - 1;
      if (n > 0) perLink.set(link, n);
      else perLink.delete(link);
    };
    socket.once('close', uncount);
    try {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, refusal.role));
    } catch {
      socket.destroy();
    }
  });

  // Every connection's calls start one per event-loop turn (./turns.ts).
  const turns = new TurnQueue();
  wss.on('connection', (ws: WebSocket, role: ConnectionRole) => {
    sockets.add(ws);
    const limits = new ConnectionLimits(options.limits ?? DEFAULT_LIMITS);
    // What this connection opened (debugger sessions, episodes) is released when it goes; its
    // role comes from the token it presented.
    const connection = new Connection(role);
    const detach = services.events.attach(connection, (event, data) => safeSend(ws, { event, data }));
    // ws reports protocol errors (bad UTF-8, reserved opcodes, unmasked or oversized frames, RSV1,
    // bad close codes) here and closes the socket itself; without a listener they would throw.
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      sockets.delete(ws);
      detach();
      connection.close();
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return safeSend(ws, { id: null, ok: false, error: { code: 'bad_request', message: 'binary frames are not accepted' } });
      const admission = limits.admit();
      if (!admission.ok) return safeSend(ws, { id: peekRequestId(data.toString()), ok: false, error: { code: 'rate_limited', message: admission.reason } });
      const text = data.toString();
      turns.push(() => {
        dispatchText(services.handlers, text, connection)
          .then((reply) => safeSend(ws, reply))
          .catch(() => safeSend(ws, { id: null, ok: false, error: { code: 'failed', message: 'internal error' } }))
          .finally(admission.done);
      });
    });
  });

  port = await listen(http, options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets) ws.terminate();
        wss.close();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

interface Refusal {
  status: 400 | 401 | 403;
  text: string;
}

/**
 * Why an upgrade request is refused, or the role its token gives the connection. `credential`
 * maps a token to a role (null: not a valid token). Never throws.
 */
export function refuseUpgrade(req: IncomingMessage, credential: (token: string | null) => ConnectionRole | null, port: number, cap: (role: ConnectionRole) => { open: number; max: number }): Refusal | { role: ConnectionRole } {
  const target = parseTarget(req.url);
  if (!target) return { status: 400, text: 'bad request' };
  const role = target.path === '/lab' && loopbackHost(req.headers.host) ? credential(target.query.get('token')) : null;
  if (!role) return { status: 401, text: 'a valid session token is required' };
  if (!originAllowed(req.headers.origin, port)) return { status: 403, text: 'cross-origin WebSocket refused' };
  const { open, max } = cap(role);
  if (open >= max) return { status: 403, text: role.role === 'participant' ? 'too many open connections for this participant link' : 'too many open connections' };
  return { role };
}

export { originAllowed } from './door';

/** Sends a JSON value if the socket is open; a value JSON cannot carry becomes an error envelope. */
function safeSend(ws: WebSocket, value: unknown): void {
  if (ws.readyState !== ws.OPEN) return;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    const id = typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'number' ? value.id : null;
    text = JSON.stringify({ id, ok: false, error: { code: 'failed', message: 'the reply could not be serialised' } });
  }
  ws.send(text, () => undefined);
}

/** The request id of a refused message, when it is cheap to see (refusals answer without parsing). */
function listen(http: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => {
      http.off('error', reject);
      http.on('error', () => undefined);
      const address = http.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

