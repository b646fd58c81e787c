// Issue 24 item 8, tokens and unlock, in a real Chromium against `splatlab serve`: the
// experimenter opens the lab with its token and starts a participant's session on that page; the
// page is handed over by a fresh navigation, after which the experimenter's token is in none of
// the navigation and resource entries, the history, the referrer, localStorage, sessionStorage
// or cookies, and the page's own JavaScript cannot connect as the experimenter. Once the session
// ends, that link shows "session over"; its wrong PINs never lock the experimenter, and its
// sockets never take the experimenter's connection slots.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import NodeWebSocket from 'ws';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';

const skip = browserMissing();
const PIN = '1357';

/** Opens a socket with `token`; resolves with it, or with the HTTP status of a refused upgrade. */
function open(url: string): Promise<NodeWebSocket | number> {
  return new Promise((resolve) => {
    const ws = new NodeWebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

async function call(ws: NodeWebSocket, method: string, params: unknown): Promise<{ ok: boolean; result?: unknown; error?: { code: string; message: string } }> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve) => {
    const on = (d: NodeWebSocket.RawData) => {
      const m = JSON.parse(d.toString()) as { id?: number };
      if (m.id !== id) return;
      ws.off('message', on);
      resolve(m as never);
    };
    ws.on('message', on);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

describe.skipIf(skip)('handing a tab to a participant (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;

  beforeAll(async () => {
    ({ serve } = await startTestLab('splatlab-handover-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('leaves the experimenter token nowhere in the handed-over tab, and a finished link cannot lock out or crowd out the experimenter', async () => {
    const base = new URL(serve.url);
    const secret = base.searchParams.get('token') ?? '';
    const lab = (token: string) => `ws://${base.host}/lab?token=${encodeURIComponent(token)}`;
    const desk = (await open(lab(secret))) as NodeWebSocket;
    for (const [m, p] of [
      ['study.create', { name: 'Handover', tasks: ['test__sculpt'], practiceTask: 'test__oneshot' }],
      ['study.addParticipant', { studyId: 'handover' }],
      ['roles.setPin', { studyId: 'handover', pin: PIN }],
    ] as const) expect((await call(desk, m, p)).ok, m).toBe(true);

    const page = await browser.newPage({ viewport: { width: 1300, height: 860 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-study').click();
    await page.getByTestId('study-item-handover').click();
    // The hand-over is a fresh navigation of this tab (a new document loads).
    const reloaded = page.waitForEvent('load', { timeout: 60_000 });
    await page.getByTestId('start-session-P01').click();
    await reloaded;
    await page.getByTestId('session-consent').waitFor({ timeout: 60_000 });

    const found = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation').map((e) => e.name);
      const resources = performance.getEntriesByType('resource').map((e) => e.name);
      const store = (s: Storage) => Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i) ?? '')}`);
      return { nav, resources, href: location.href, referrer: document.referrer, history: history.length, local: store(localStorage), session: store(sessionStorage), cookie: document.cookie, token: sessionStorage.getItem('splatlab-token') ?? '' };
    });
    await page.screenshot({ path: join(RESULTS_DIR, 'handover-participant.png') });
    const everything = [...found.nav, ...found.resources, found.href, found.referrer, ...found.local, ...found.session, found.cookie].join('\n');
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(encodeURIComponent(secret));
    expect(found.nav).toEqual([`${base.origin}/`]);
    expect(found.token).toMatch(/^p\./);
    // The page's own JavaScript, with what it holds, connects only as the participant.
    const whoami = await page.evaluate(async () => {
      const ws = new WebSocket(`ws://${location.host}/lab?token=${encodeURIComponent(sessionStorage.getItem('splatlab-token') ?? '')}`);
      await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
      const reply = await new Promise<string>((resolve) => ((ws.onmessage = (e) => resolve(String(e.data))), ws.send(JSON.stringify({ id: 1, method: 'roles.whoami', params: {} }))));
      ws.close();
      return JSON.parse(reply) as { result: { role: string } };
    });
    expect(whoami.result.role).toBe('participant');

    // The session ends (the experimenter's own socket): the link is over.
    expect((await call(desk, 'study.session.end', {})).ok).toBe(true);
    await page.reload();
    await page.getByTestId('session-over').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(RESULTS_DIR, 'handover-session-over.png') });

    // The finished link: at most a few sockets, and none of them may even try a PIN.
    const held: NodeWebSocket[] = [];
    const refused: number[] = [];
    for (let i = 0; i < 70; i++) {
      const s = await open(lab(found.token));
      if (typeof s === 'number') refused.push(s);
      else held.push(s);
    }
    expect(held.length).toBeLessThanOrEqual(4);
    expect(refused.every((s) => s === 403)).toBe(true);
    for (let i = 0; i < 10; i++) {
      const r = await call(held[0], 'roles.unlock', { secret: '0000' });
      expect(r.error?.message).toMatch(/session is over/);
    }
    expect((await call(held[0], 'study.session.task', {})).ok).toBe(false);
    // The experimenter is neither locked out nor crowded out: a new socket, its rows, its unlock.
    const again = await open(lab(secret));
    expect(typeof again).not.toBe('number');
    const me = again as NodeWebSocket;
    expect((await call(me, 'study.list', {})).ok).toBe(true);
    expect((await call(held[0], 'roles.unlock', { secret })).result).toMatchObject({ role: 'experimenter' });
    for (const s of [...held, me, desk]) s.close();
    expect(errors).toEqual([]);
  });
});
