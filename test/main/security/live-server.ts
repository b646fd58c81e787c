// A live `splatlab serve` for the attack replays: the real CLI in a child process on loopback,
// with a temporary lab home, the test tasks, a small stand-in UI folder (holding a symlink that
// points out of it) and the CPU device. Plus raw-socket helpers: HTTP requests written byte for
// byte (no client normalises the URL) and a hand-made WebSocket handshake for crafted frames.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface LiveServer {
  port: number;
  token: string;
  home: string;
  /** A file outside every root the server may read (a symlink in the UI folder points at it). */
  secret: string;
  child: ChildProcess;
  log: () => string;
  stop(): Promise<void>;
}

/**
 * `tasksDir` null: no tasks folder named and none of the lab's folder variables set, so the server
 * runs on its defaults (the home's layered task folder, issue 38 item 8); `env` adds variables.
 */
export async function startLiveServer(tasksDir: string | null, env: NodeJS.ProcessEnv = {}): Promise<LiveServer> {
  const base = mkdtempSync(join(tmpdir(), 'splatlab-attack-'));
  const home = join(base, 'home');
  const ui = join(base, 'ui');
  const secret = join(base, 'outside', 'secret.json');
  mkdirSync(home, { recursive: true });
  mkdirSync(ui, { recursive: true });
  mkdirSync(join(base, 'outside'), { recursive: true });
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>stand-in</title>');
  writeFileSync(secret, '{"secret": "TOP-SECRET-CONTENT"}');
  symlinkSync(secret, join(ui, 'leak.json'));
  // SPLATLAB_SERVE_NODE_ARGS: Node flags for the server alone (a bench's --cpu-prof).
  const nodeArgs = (process.env.SPLATLAB_SERVE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const own: NodeJS.ProcessEnv = { ...process.env, SPLATLAB_HOME: home, SPLATLAB_UI_ROOT: ui, ...env };
  if (tasksDir === null) for (const v of ['SPLATLAB_TASKS_DIR', 'SPLATLAB_CAPTURES', 'SPLATLAB_DATA_DIR']) delete own[v];
  const child = spawn(process.execPath, [...nodeArgs, 'src/main/cli/splatlab.mjs', 'serve', '--port', '0', ...(tasksDir === null ? [] : ['--tasks', tasksDir]), '--device', 'cpu'], {
    cwd: process.cwd(),
    env: own,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
    const poll = setInterval(() => {
      const m = /serving at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(m[1]);
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}):\n${out}`));
    });
  });
  const u = new URL(url);
  return {
    port: Number(u.port),
    token: u.searchParams.get('token') ?? '',
    home,
    secret,
    child,
    log: () => out,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Writes raw bytes to the server and returns everything it sends back until it closes (or 3 s). */
export function rawExchange(port: number, bytes: string | Buffer, ms = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(got);
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (d) => {
      got += d.toString('latin1');
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(bytes);
  });
}

/** The status code of the first HTTP response line in `text` (0 when none). */
export function statusOf(text: string): number {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return m ? Number(m[1]) : 0;
}

export interface RawWs {
  socket: Socket;
  /** Resolves when the server closes the connection; the bytes it sent after the handshake. */
  closed: Promise<Buffer>;
}

/** An authenticated WebSocket done by hand, so frames can be written with any bits set. */
export function rawWebSocket(port: number, token: string): Promise<RawWs> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let upgraded = false;
    let resolveClosed: (b: Buffer) => void = () => undefined;
    const closed = new Promise<Buffer>((r) => (resolveClosed = r));
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.subarray(0, end).toString();
        if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`no upgrade: ${head}`));
        upgraded = true;
        buf = buf.subarray(end + 4);
        resolve({ socket, closed });
      }
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => resolveClosed(buf));
    socket.write(
      `GET /lab?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}

/** One frame: FIN + `first` bits (opcode, RSV), masked unless `mask` is false. */
export function frame(first: number, payload: Buffer, opts: { mask?: boolean; declaredLength?: number } = {}): Buffer {
  const mask = opts.mask ?? true;
  const len = opts.declaredLength ?? payload.length;
  let header: Buffer;
  if (len < 126) header = Buffer.from([first, (mask ? 0x80 : 0) | len]);
  else if (len < 65536) header = Buffer.from([first, (mask ? 0x80 : 0) | 126, len >> 8, len & 255]);
  else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = (mask ? 0x80 : 0) | 127;
    header.writeBigUInt64BE(BigInt(len), 2);
  }
  if (!mask) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ key[i % 4]));
  return Buffer.concat([header, key, body]);
}
