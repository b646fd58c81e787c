// The WebSocket transport: token required, loopback only, the same dispatch as IPC, static UI.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type LabServer } from '../../../src/main/transport/ws';
import { fakeServices } from '../services/fixtures';

let server: LabServer;
const services = fakeServices();

beforeAll(async () => {
  const ui = mkdtempSync(join(tmpdir(), 'splatlab-ui-'));
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>SplatLab</title>');
  server = await startServer(services, { uiRoot: ui });
});
afterAll(() => server.close());

function open(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with HTTP ${res.statusCode}`)));
  });
}

function request(ws: WebSocket, text: string): Promise<unknown> {
  return new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(data.toString())));
    ws.send(text);
  });
}

describe('splatlab serve transport', () => {
  it('binds loopback and serves the UI with a CSP', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    const res = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`http://127.0.0.1:${server.port}/..%2f..%2fetc/passwd`)).status).not.toBe(200);
  });

  it('refuses a WebSocket without the token or with a wrong one', async () => {
    await expect(open(`ws://127.0.0.1:${server.port}/lab`)).rejects.toThrow(/401/);
    await expect(open(`ws://127.0.0.1:${server.port}/lab?token=wrong`)).rejects.toThrow(/401/);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    await expect(open(`ws://127.0.0.1:${server.port}/lab?token=${server.token}`, { Host: 'evil.example:80' })).rejects.toThrow(/401/);
  });

  it('answers calls and errors over an authenticated socket', async () => {
    const ws = await open(`ws://127.0.0.1:${server.port}/lab?token=${server.token}`);
    expect(await request(ws, JSON.stringify({ id: 1, method: 'app.info', params: {} }))).toMatchObject({ id: 1, ok: true });
    expect(await request(ws, JSON.stringify({ id: 2, method: 'lab.nope', params: {} }))).toMatchObject({ id: 2, ok: false, error: { code: 'unknown_method' } });
    expect(await request(ws, 'garbage')).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    // A 9 MiB message (over the 8 MiB limit, under the frame's) is answered under its own id (issue 38 item 5).
    const big = `{"method":"app.info","params":{"pad":"${'x'.repeat(9 * 1024 * 1024)}"},"id":3}`;
    expect(await request(ws, big)).toMatchObject({ id: 3, ok: false, error: { code: 'too_large' } });
    ws.close();
  });

  it('forwards events to the connection they are addressed to, and to no other', async () => {
    const ws = await open(`ws://127.0.0.1:${server.port}/lab?token=${server.token}`);
    const other = await open(`ws://127.0.0.1:${server.port}/lab?token=${server.token}`);
    const me = (await request(ws, JSON.stringify({ id: 1, method: 'roles.whoami', params: {} }))) as { result: { connection: string; role: string } };
    expect(me.result.role).toBe('experimenter');
    const strays: unknown[] = [];
    other.on('message', (d) => strays.push(JSON.parse(d.toString())));
    const got = new Promise((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
    services.events.publish('progress', { task: 'fit', done: 1, total: 10, message: 'step 1' }, me.result.connection);
    expect(await got).toEqual({ event: 'progress', data: { task: 'fit', done: 1, total: 10, message: 'step 1' } });
    // A round trip on the other socket: anything sent to it before would have arrived first.
    expect(await request(other, JSON.stringify({ id: 2, method: 'app.info', params: {} }))).toMatchObject({ id: 2, ok: true });
    expect(strays.filter((m) => typeof m === 'object' && m !== null && 'event' in m)).toEqual([]);
    ws.close();
    other.close();
  });

  it('makes a participant-token connection a participant one that cannot reach experimenter rows', async () => {
    const token = services.roles.participantToken({ studyId: 'some-study', participant: 'P01' });
    const ws = await open(`ws://127.0.0.1:${server.port}/lab?token=${encodeURIComponent(token)}`);
    expect(await request(ws, JSON.stringify({ id: 1, method: 'roles.whoami', params: {} }))).toMatchObject({ ok: true, result: { role: 'participant', session: { studyId: 'some-study', participant: 'P01' }, participantToken: token } });
    expect(await request(ws, JSON.stringify({ id: 2, method: 'study.session.end', params: {} }))).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await request(ws, JSON.stringify({ id: 3, method: 'author.status', params: {} }))).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    ws.close();
    await expect(open(`ws://127.0.0.1:${server.port}/lab?token=${encodeURIComponent(`${token.slice(0, -2)}xx`)}`)).rejects.toThrow(/401/);
  });
});
