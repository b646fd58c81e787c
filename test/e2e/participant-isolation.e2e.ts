// Participant isolation in a real Chromium against `splatlab serve` (issue 11, first "Done when"):
// a participant page opened with its participant-scoped token plays its session while an
// experimenter in a second page runs a fit in Author. The participant page shows no experimenter
// view; End session asks for the unlock (a wrong PIN is refused); from the page's own JavaScript,
// ending the session, Results, Author, the Debugger, another task and another log are each
// refused with a clear line; a second tab on the same episode is read-only ("open elsewhere").
// Every WebSocket frame the participant pages received is scanned: no held-out view name
// (H0..H7), no photo set, no anchors, no fit, no hidden score. The experimenter page did get the
// fit's frames (held-out renders), so the scan looks at a run where there was something to leak.
// Screenshots: test-results/isolation-*.png.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { studyOverApi } from './study-flow';

const skip = browserMissing();
const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS_DIR, `isolation-${name}.png`) });
const PIN = '2468';

/** What must never reach a participant: held-out names, photo sets, anchors, fits, hidden scores. */
const HELD_OUT = [
  /"H[0-7]"/,
  /"(heldout|heldoutViews|anchors|fitSnapshot|score|hidden|psnr|ssim|lpips|reward|losses)"\s*:/i,
  /"event"\s*:\s*"(author\.|progress)/,
];

/** One LabApi call over a fresh socket from Node (the experimenter's own setup calls). */
/** Calls LabApi from inside the page over its own token (what the page's JavaScript could do). */
function callsFromPage(page: Page, calls: [string, unknown][]): Promise<{ method: string; ok: boolean; code?: string; message?: string }[]> {
  return page.evaluate(async (list) => {
    const token = sessionStorage.getItem('splatlab-token') ?? '';
    const ws = new WebSocket(`ws://${location.host}/lab?token=${encodeURIComponent(token)}`);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    const out: { method: string; ok: boolean; code?: string; message?: string }[] = [];
    for (const [i, [method, params]] of list.entries()) {
      const reply = await new Promise<{ ok: boolean; error?: { code: string; message: string } }>((resolve) => {
        ws.onmessage = (e) => {
          const m = JSON.parse(String(e.data)) as { id?: number };
          if (m.id === i + 1) resolve(m as never);
        };
        ws.send(JSON.stringify({ id: i + 1, method, params }));
      });
      out.push({ method, ok: reply.ok, code: reply.error?.code, message: reply.error?.message });
    }
    ws.close();
    return out;
  }, calls);
}

describe.skipIf(skip)('participant isolation (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    ({ serve, home } = await startTestLab('splatlab-isolation-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('keeps the participant page to its own session while the experimenter fits in Author', async () => {
    const base = new URL(serve.url);
    const experimenterWs = `ws://${base.host}/lab?token=${base.searchParams.get('token')}`;
    // The experimenter's setup: a study with a PIN, two participants, P01's session started
    // (the setup socket is handed over and closes), and P01's participant link.
    const link = { token: await studyOverApi(experimenterWs, { name: 'Isolation', studyId: 'isolation', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', participants: 2, pin: PIN }) };

    const participant = await browser.newPage({ viewport: { width: 1400, height: 880 } });
    const frames: string[] = [];
    const errors: string[] = [];
    participant.on('pageerror', (e) => errors.push(e.message));
    participant.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
    await participant.goto(`${base.origin}/?token=${encodeURIComponent(link.token)}`);
    await participant.getByTestId('session-consent').waitFor();
    await participant.getByTestId('consent-agree').click();
    await participant.getByTestId('instructions-continue').click();
    await participant.getByTestId('session-task-banner').filter({ hasText: 'Practice task' }).waitFor();
    await participant.getByTestId('budget-meter').waitFor();
    for (const view of ['study', 'results', 'author', 'debug', 'tasks', 'play']) expect(await participant.getByTestId(`nav-${view}`).count(), view).toBe(0);
    await shot(participant, 'participant');

    // The experimenter's own page: a banner about the session, and Author runs a fit meanwhile.
    const experimenter = await browser.newPage({ viewport: { width: 1400, height: 880 } });
    const expFrames: string[] = [];
    experimenter.on('websocket', (ws) => ws.on('framereceived', (f) => expFrames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
    await experimenter.goto(serve.url);
    await experimenter.getByTestId('session-banner').waitFor();
    expect(await experimenter.getByTestId('session-banner').textContent()).toContain('P01');
    await experimenter.getByTestId('participant-link').click();
    expect(await experimenter.getByTestId('participant-link-url').textContent()).toContain(encodeURIComponent(link.token));
    await shot(experimenter, 'experimenter-banner');
    await experimenter.getByTestId('nav-author').click();
    await experimenter.getByTestId('author-name').fill('probe');
    await experimenter.getByTestId('author-add-sphere').click();
    await experimenter.getByTestId('author-tab-fit').click();
    await experimenter.getByTestId('author-fit-steps').fill('12');
    await experimenter.getByTestId('author-fit-run').click();

    // While it runs: End session on the participant's screen needs the unlock; a wrong PIN fails.
    await participant.getByTestId('session-end').click();
    await participant.getByTestId('unlock-prompt').waitFor();
    await participant.getByTestId('unlock-secret').fill('1111');
    await participant.getByTestId('unlock-submit').click();
    await expect.poll(() => participant.getByTestId('unlock-error').textContent()).toContain('wrong PIN');
    await shot(participant, 'unlock');
    await participant.getByTestId('unlock-cancel').click();
    expect(await participant.getByTestId('session-end-confirm').count()).toBe(0);

    // The page's own JavaScript: every experimenter action is refused, each with a clear line.
    const p02Log = join(home, 'studies', 'isolation', 'trajectories', 'P02', 'test__sculpt.jsonl');
    const tried = await callsFromPage(participant, [
      ['study.session.end', {}],
      ['study.results', { studyId: 'isolation' }],
      ['author.fit.start', { object: { name: 'x', parts: [] } }],
      ['author.sheet', { object: { name: 'x', parts: [] }, set: 'heldout' }],
      ['debug.open', { source: { kind: 'task', taskId: 'test__sculpt', scene: 'fit' } }],
      ['episode.start', { taskId: 'test__sculpt' }],
      ['episode.resume', { log: p02Log }],
      ['study.session.start', { studyId: 'isolation', participant: 'P02' }],
    ]);
    for (const t of tried) {
      expect(t, t.method).toMatchObject({ ok: false, code: 'forbidden' });
      expect(t.message, t.method).toMatch(/refused: an experimenter action, and this page runs a participant session/);
    }

    // A second tab of the same participant: read-only, the episode is open elsewhere.
    const second = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    second.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
    await second.goto(`${base.origin}/?token=${encodeURIComponent(link.token)}`);
    await second.getByTestId('open-elsewhere').waitFor();
    expect(await second.getByTestId('add-sphere').count()).toBe(0);
    await shot(second, 'open-elsewhere');
    await second.close();

    // The fit ends on the experimenter's page, whose frames carried its held-out renders.
    await expect.poll(() => experimenter.getByTestId('author-fit-progress').textContent(), { timeout: 90_000 }).toContain('done · step 12/12');
    expect(expFrames.some((f) => f.includes('"event":"author.fit'))).toBe(true);
    expect(expFrames.some((f) => /"H[0-7]"/.test(f))).toBe(true);

    // The participant plays on (the practice is one commit), and nothing held out ever arrived.
    await participant.getByTestId('add-sphere').click();
    await participant.getByTestId('commit').click();
    await participant.getByTestId('play-submitted').waitFor();
    expect(frames.length).toBeGreaterThan(10);
    for (const f of frames) {
      const text = f.replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/g, '');
      for (const pattern of HELD_OUT) expect(text, text.slice(0, 200)).not.toMatch(pattern);
    }

    // The right PIN unlocks the screen, and only then does End session go through.
    await participant.getByTestId('session-end').click();
    await participant.getByTestId('unlock-secret').fill(PIN);
    await participant.getByTestId('unlock-submit').click();
    await participant.getByTestId('session-end-yes').click();
    await participant.getByTestId('study-detail').waitFor();
    expect(errors).toEqual([]);
  });
});
