// The front door's rules one by one (docs/SECURITY.md, "The front door"): a malformed URL is a 400
// before the token is looked at, the token before Host and Origin, open paths need no token; the
// server tuning for slow work (keep-alive longer than clients', no socket timeout).
import { createServer, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { frontDoor, tuneServer } from '../../../src/main/transport/door';

const req = (url: string, headers: Record<string, string> = {}): IncomingMessage => ({ url, headers: { host: '127.0.0.1:9', ...headers } }) as unknown as IncomingMessage;
const rules = { port: () => 9, credential: (t: string | null) => (t === 'good' ? 'role' : null) };

describe('frontDoor', () => {
  it('answers in order: malformed URL, token, Host, Origin', () => {
    for (const url of ['//', '///', '//a%20b', '//[', '/%', '/%c0%ae', '/%2e%2e/x', '/a\\b', '*', 'http://x/']) {
      expect(frontDoor(req(url), rules), url).toMatchObject({ ok: false, status: 400 });
    }
    expect(frontDoor(req('/mcp', { host: 'evil.example' }), rules)).toMatchObject({ ok: false, status: 401 });
    expect(frontDoor(req('/mcp', { host: 'evil.example', authorization: 'Bearer good' }), rules)).toMatchObject({ ok: false, status: 403 });
    expect(frontDoor(req('/mcp?token=good', { origin: 'http://evil.example' }), rules)).toMatchObject({ ok: false, status: 403 });
    expect(frontDoor(req('/mcp?token=good', { origin: 'http://127.0.0.1:9' }), rules)).toMatchObject({ ok: true, role: 'role' });
    expect(frontDoor(req('/index.html'), { ...rules, open: () => true })).toMatchObject({ ok: true, role: null });
  });

  it('reads the Bearer scheme in any case (RFC 9110; issue 38)', () => {
    for (const auth of ['Bearer good', 'bearer good', 'BEARER  good']) expect(frontDoor(req('/mcp', { authorization: auth }), rules), auth).toMatchObject({ ok: true, role: 'role' });
    expect(frontDoor(req('/mcp', { authorization: 'Basic good' }), rules)).toMatchObject({ ok: false, status: 401 });
  });

  it('tunes a server for slow work', () => {
    const http = createServer();
    tuneServer(http);
    expect(http.keepAliveTimeout).toBeGreaterThanOrEqual(65_000);
    expect(http.timeout).toBe(0);
    expect(http.requestTimeout).toBeGreaterThanOrEqual(120_000);
    expect(http.listenerCount('clientError')).toBe(1);
  });
});
