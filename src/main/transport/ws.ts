// `splatlab serve`: the built UI over loopback HTTP and LabApi over a WebSocket at /lab.
// Inputs: handlers and events from src/main/services. Output: a running server and its URL.
// Invariants: binds 127.0.0.1 only; a WebSocket upgrade needs the random session token and a
// loopback Host (no DNS rebinding); every frame goes through dispatchText (size, JSON, schema).
import { createServer, type Server } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_MESSAGE_BYTES } from '../../shared/api/messages';
import { Connection } from '../services/connection';
import { dispatchText } from '../services/dispatch';
import type { LabServices } from '../services/lab';
import { serveStatic } from './static';

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
}

export async function startServer(services: LabServices, options: ServeOptions): Promise<LabServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const http = createServer((req, res) => void serveStatic(options.uiRoot, req, res));
  // Twice the message limit, so a frame somewhat over it still gets a readable "too large" answer
  // from dispatchText instead of the socket closing without a reason.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 2 * MAX_MESSAGE_BYTES });
  const sockets = new Set<WebSocket>();

  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/lab' || !loopbackHost(req.headers.host) || !tokenMatches(url.searchParams.get('token'), token)) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nSplatLab: a valid session token is required\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws));
  });

  wss.on('connection', (ws) => {
    sockets.add(ws);
    // What this connection opened (debugger sessions) is released when it goes.
    const connection = new Connection();
    ws.on('close', () => {
      sockets.delete(ws);
      connection.close();
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.send(JSON.stringify({ id: null, ok: false, error: { code: 'bad_request', message: 'binary frames are not accepted' } }));
        return;
      }
      void dispatchText(services.handlers, data.toString(), connection).then((reply) => ws.send(JSON.stringify(reply)));
    });
  });

  const unsubscribe = services.events.subscribe((event, data) => {
    const text = JSON.stringify({ event, data });
    for (const ws of sockets) ws.send(text);
  });

  const port = await listen(http, options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        unsubscribe();
        for (const ws of sockets) ws.terminate();
        wss.close();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

function listen(http: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => {
      const address = http.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function loopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, '');
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}
