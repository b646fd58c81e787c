// Replays the attacks of issue #18 against a live `splatlab serve` on loopback and checks, after
// each group, that the same server process is still up and answering with clean errors:
// malformed URLs and upgrades, WebSocket protocol errors, deeply nested args, concurrent calls at
// the end of the budget, traversal through task ids, resume logs, debugger paths and a NeRF
// upload's file_path, symlinks out of the UI root, a foreign Origin, and a burst over the rate.
// Bounded: a few hundred messages, one server, well under a minute.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { testTasks } from '../env/fixtures';
import { frame, rawExchange, rawWebSocket, startLiveServer, statusOf, type LiveServer } from './live-server';

let server: LiveServer;
let ws: WebSocket;
let nextId = 1;

interface Reply {
  id: number | null;
  ok: boolean;
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

function open(headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/lab?token=${server.token}`, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

function call(method: string, params: unknown, socket = ws): Promise<Reply> {
  return callText(method, JSON.stringify(params), socket);
}

/** A call whose params are given as JSON text (nesting too deep for JSON.stringify here). */
function callText(method: string, paramsJson: string, socket = ws): Promise<Reply> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to ${method} (server down?)\n${server.log().slice(-2000)}`)), 10_000);
    const onMessage = (data: WebSocket.RawData): void => {
      const reply = JSON.parse(data.toString()) as Reply;
      if (reply.id !== id) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(reply);
    };
    socket.on('message', onMessage);
    socket.send(`{"id":${id},"method":${JSON.stringify(method)},"params":${paramsJson}}`);
  });
}

/** The server process is alive, serves the UI and answers LabApi on a fresh socket. */
async function stillUp(): Promise<void> {
  expect(server.child.exitCode, server.log()).toBeNull();
  const res = await fetch(`http://127.0.0.1:${server.port}/`);
  expect(res.status).toBe(200);
  const fresh = await open();
  expect((await call('app.info', {}, fresh)).ok).toBe(true);
  fresh.close();
}

/** A clean error: one line, no absolute path, no errno name. */
function expectClean(message: string | undefined): void {
  expect(message).toBeDefined();
  expect(message).not.toMatch(/\n/);
  expect(message).not.toMatch(/(^|[\s'"(])\/(tmp|home|root|etc|work|usr|var)\//);
  expect(message).not.toMatch(/\bE(NOENT|ACCES|ISDIR|NOTDIR|PERM|LOOP)\b/);
  expect(message).not.toContain(server.home);
}

beforeAll(async () => {
  const { tasksDir } = await testTasks();
  server = await startLiveServer(tasksDir);
  ws = await open();
}, 90_000);

afterAll(async () => {
  ws?.close();
  await server?.stop();
});

describe('HTTP transport under attack', () => {
  it('answers malformed targets with 400 and stays up', async () => {
    for (const target of ['/%', '/%E0%A4%A', '/%c0%ae', '//', '/%2e%2e/%2e%2e/etc/passwd', '/a\\..\\b']) {
      const reply = await rawExchange(server.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      expect(statusOf(reply), target).toBe(400);
    }
    const upgrade = await rawExchange(server.port, `GET // HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    expect(statusOf(upgrade)).toBe(400);
    expect(statusOf(await rawExchange(server.port, 'THIS IS NOT HTTP\r\n\r\n'))).toBe(400);
    await stillUp();
  });

  it('serves only real paths inside the UI root, with Referrer-Policy no-referrer', async () => {
    const leak = await fetch(`http://127.0.0.1:${server.port}/leak.json`);
    expect(leak.status).toBe(404);
    expect(await leak.text()).not.toContain('TOP-SECRET');
    const index = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(index.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('refuses a WebSocket from a foreign Origin', async () => {
    await expect(open({ Origin: 'https://evil.example' })).rejects.toThrow(/403/);
    const same = await open({ Origin: `http://127.0.0.1:${server.port}` });
    same.close();
  });
});

describe('WebSocket protocol errors close only their socket', () => {
  const attacks: [string, Buffer][] = [
    ['invalid UTF-8', frame(0x81, Buffer.from([0xc3, 0x28]))],
    ['reserved opcode', frame(0x83, Buffer.from('x'))],
    ['unmasked frame', frame(0x81, Buffer.from('{}'), { mask: false })],
    ['RSV1 without extension', frame(0xc1, Buffer.from('{}'))],
    ['bad close code', frame(0x88, Buffer.from([0x03, 0xe7]))],
    ['17 MiB frame', frame(0x81, Buffer.alloc(0), { declaredLength: 17 * 1024 * 1024 })],
  ];
  it.each(attacks)('%s', async (_name, bytes) => {
    const raw = await rawWebSocket(server.port, server.token);
    raw.socket.write(bytes);
    await raw.closed;
    expect((await call('app.info', {})).ok).toBe(true); // the other socket is untouched
    await stillUp();
  });
});

describe('LabApi under attack', () => {
  let episodeId = '';
  const deep = (n: number): string => `${'['.repeat(n)}0${']'.repeat(n)}`;

  it('refuses deeply nested tool args before anything is charged or logged', async () => {
    const start = await call('episode.start', { taskId: 'test__sculpt' });
    expect(start.ok, JSON.stringify(start.error)).toBe(true);
    episodeId = String(start.result?.episodeId);
    for (let i = 0; i < 3; i++) expect((await call('episode.step', { episodeId, tool: 'list_gaussians', args: {} })).ok).toBe(true);
    const bad = await callText('episode.step', `{"episodeId":"${episodeId}","tool":"add_gaussians","args":{"gaussians":${deep(10_000)}}}`);
    expect(bad.error?.code).toBe('bad_request');
    expectClean(bad.error?.message);
    const after = await call('episode.step', { episodeId, tool: 'list_gaussians', args: {} });
    expect(after.result?.step).toBe(4);
    const got = await call('episode.get', { episodeId });
    expect(got.ok).toBe(true);
    expect((got.result?.history as unknown[]).length).toBe(4);
    await stillUp();
  });

  it('numbers concurrent calls in order and charges nothing after the end', async () => {
    const replies = await Promise.all(Array.from({ length: 6 }, () => call('episode.step', { episodeId, tool: 'list_gaussians', args: {} })));
    expect(replies.map((r) => r.result?.step)).toEqual([5, 6, 7, 8, 9, 10]);
    const oneshot = await call('episode.start', { taskId: 'test__oneshot' });
    const id = String(oneshot.result?.episodeId);
    const burst = await Promise.all(Array.from({ length: 6 }, () => call('episode.step', { episodeId: id, tool: 'list_gaussians', args: {} })));
    expect(burst.map((r) => r.result?.step)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(burst.slice(1).every((r) => r.result?.done === true && r.result?.error === true)).toBe(true);
    const got = await call('episode.get', { episodeId: id });
    expect((got.result?.history as unknown[]).length).toBe(1);
    const logs = readdirSync(join(server.home, 'trajectories')).filter((f) => f.startsWith('test__oneshot'));
    const steps = readFileSync(join(server.home, 'trajectories', logs[0]), 'utf8').split('\n').filter((l) => l.includes('"step"') && !l.includes('"type"'));
    expect(steps.map((l) => (JSON.parse(l) as { step: number }).step)).toEqual([0, 1]);
  });

  it('confines task ids, resume logs and debugger paths, and reveals nothing about the disk', async () => {
    for (const taskId of ['../outside/secret', '../../etc/passwd', 'a/../../b', '..']) {
      const r = await call('episode.start', { taskId });
      expect(r.ok).toBe(false);
      expectClean(r.error?.message);
      expect(r.error?.message).not.toContain('TOP-SECRET');
    }
    for (const log of [server.secret, '../outside/secret.json', '/etc/passwd']) {
      const r = await call('episode.resume', { log });
      expect(r.ok).toBe(false);
      expectClean(r.error?.message);
    }
    const exists = await call('debug.open', { source: { kind: 'trajectory', path: '../outside/secret.json', step: 0 } });
    const missing = await call('debug.open', { source: { kind: 'trajectory', path: '../outside/nothing.json', step: 0 } });
    expect(exists.ok).toBe(false);
    expect(exists.error?.message).toMatch(/outside the lab home/);
    expectClean(exists.error?.message);
    // An existing and a missing file outside the root get the same answer (up to the name).
    expect(exists.error?.message.replace('secret', 'X')).toBe(missing.error?.message.replace('nothing', 'X'));
    await stillUp();
  });

  it("confines a NeRF upload's file_path to the upload", async () => {
    const begin = await call('author.upload.begin', { kind: 'nerf' });
    const uploadId = String(begin.result?.uploadId);
    const frames = Array.from({ length: 20 }, (_, i) => ({ file_path: i % 2 ? '../../outside/secret' : '/etc/hostname', transform_matrix: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 4], [0, 0, 0, 1]] }));
    const transforms = Buffer.from(JSON.stringify({ camera_angle_x: 0.69, frames })).toString('base64');
    expect((await call('author.upload.put', { uploadId, path: 'transforms_train.json', data: transforms })).ok).toBe(true);
    const r = await call('author.upload.finish', { uploadId, name: 'stolen' });
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(/outside the capture folder/);
    expectClean(r.error?.message);
    expect(existsSync(join(server.home, 'uploads', uploadId))).toBe(false);
    await stillUp();
  });

  it('refuses a burst over the per-connection rate without running it, then recovers', async () => {
    const burst = await open();
    const replies = await Promise.all(Array.from({ length: 600 }, () => call('app.info', {}, burst)));
    const limited = replies.filter((r) => r.error?.code === 'rate_limited').length;
    expect(limited).toBeGreaterThan(0);
    expect(replies.filter((r) => r.ok).length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await call('app.info', {}, burst)).ok).toBe(true);
    burst.close();
    await stillUp();
  });
});
