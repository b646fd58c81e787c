// Slow-header sockets end at the header timeout (issue 38, the lower items; src/main/transport/
// door.ts SERVER_OPTIONS): Node checks header timeouts only every connectionsCheckingInterval (30 s
// by default), so a socket trickling its headers outlived the lab's timeout by up to that much.
// A server built as the lab's are (SERVER_OPTIONS, tuneServer) with a 1 s header timeout closes
// such a socket within the test's time (with Node's default interval it stays open past it), and
// every HTTP server the lab creates passes SERVER_OPTIONS.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_OPTIONS, tuneServer } from '../../../src/main/transport/door';

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name));
}

describe('slow-header sockets', () => {
  it('are closed once their header timeout passes, while the headers still trickle in', async () => {
    const http = createServer(SERVER_OPTIONS, (_req, res) => res.end('ok'));
    tuneServer(http);
    http.headersTimeout = 1_000;
    const errors: string[] = [];
    http.on('clientError', (e: NodeJS.ErrnoException) => errors.push(e.code ?? e.message));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // One header byte at a time: the socket never goes idle, only its headers never end.
    const trickle = setInterval(() => socket.writable && socket.write('X'), 200);
    try {
      await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    } finally {
      clearInterval(trickle);
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
    // Ended by the header timeout (the lab answers a client error with a plain 400), not by the parser.
    expect(errors[0]).toBe('ERR_HTTP_REQUEST_TIMEOUT');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
  }, 15_000);

  it('every HTTP server of the lab is created with SERVER_OPTIONS', () => {
    const creating = sources(join(process.cwd(), 'src', 'main')).filter((f) => /\bcreateServer\(/.test(readFileSync(f, 'utf8')) && /from 'node:http'/.test(readFileSync(f, 'utf8')));
    expect(creating.length).toBeGreaterThanOrEqual(3);
    for (const f of creating) {
      const calls = readFileSync(f, 'utf8').match(/\bcreateServer\([^)]*?(?=[,)])/g) ?? [];
      for (const call of calls) expect(call, f).toBe('createServer(SERVER_OPTIONS');
    }
  });
});
