// Issue 41 in the browser: two labs on one machine (two homes, two ports) collect one study as two
// stations with scripted participants (one withdraws and has their data deleted at station B); the
// study's own lab (a third home) merges both archives from its Studies view; its results and flow
// equal the stations' together, and merging again changes nothing.
// Screenshot: test-results/stations-merged.png.
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import NodeWebSocket from 'ws';
import type { StudyResults } from '../../src/shared/api/study';
import type { Participant } from '../../src/shared/study/config';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';

const skip = browserMissing();

/** One WebSocket connection to a lab, kept open (a participant session belongs to its connection). */
class Desk {
  private next = 1;
  private readonly waiting = new Map<number, (reply: { ok: boolean; result?: unknown; error?: { message: string } }) => void>();
  private constructor(
    private readonly ws: NodeWebSocket,
    readonly token: string,
  ) {
    ws.on('message', (d) => {
      const msg = JSON.parse(d.toString()) as { id?: number; ok: boolean; result?: unknown; error?: { message: string } };
      if (typeof msg.id === 'number') this.waiting.get(msg.id)?.(msg);
    });
  }

  static async open(serve: ServeProcess): Promise<Desk> {
    const base = new URL(serve.url);
    const token = base.searchParams.get('token') ?? '';
    const ws = new NodeWebSocket(`ws://${base.host}/lab?token=${token}`);
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    return new Desk(ws, token);
  }

  async call<T>(method: string, params: unknown = {}): Promise<T> {
    const id = this.next++;
    const reply = await new Promise<{ ok: boolean; result?: unknown; error?: { message: string } }>((resolve) => {
      this.waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ id, method, params }));
    });
    this.waiting.delete(id);
    if (!reply.ok) throw new Error(`${method}: ${reply.error?.message}`);
    return reply.result as T;
  }

  close(): void {
    this.ws.close();
  }
}

const STUDY = 'two-stations';

/** A scripted participant: consent, practice and `tasks` scored tasks with one Gaussian at x. */
async function participant(desk: Desk, x: number, tasks: number, withdraw = false): Promise<string> {
  const p = await desk.call<Participant>('study.addParticipant', { studyId: STUDY });
  await desk.call('study.session.start', { studyId: STUDY, participant: p.id });
  await desk.call('study.session.advance', { accept: true });
  await desk.call('study.session.advance', {});
  for (let i = 0; i <= tasks; i++) {
    if (i > 0) await desk.call('study.session.next');
    const s = await desk.call<{ episodeId: string }>('study.session.task');
    await desk.call('episode.step', { episodeId: s.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [x, 0, 0], scale: 0.3, color: '#c08040' }] } });
    await desk.call('episode.step', { episodeId: s.episodeId, tool: 'submit', args: {} });
  }
  if (withdraw) await desk.call('study.session.withdraw', { reason: 'had to leave' });
  else await desk.call('study.session.next');
  // The session made this connection a participant's: the experimenter takes it back to end it.
  await desk.call('roles.unlock', { secret: desk.token });
  await desk.call('study.session.end');
  return p.id;
}

const key = (e: { source: string; participant: string; taskId: string; score: number | null }): string => `${e.source}|${e.participant}|${e.taskId}|${e.score}`;

describe.skipIf(skip)('one study on two stations (browser mode)', () => {
  const labs: { serve: ServeProcess; home: string }[] = [];
  const desks: Desk[] = [];
  let browser: Browser;

  beforeAll(async () => {
    for (const prefix of ['splatlab-study-', 'splatlab-station-a-', 'splatlab-station-b-']) {
      const { serve, home } = await startTestLab(prefix);
      labs.push({ serve, home });
      desks.push(await Desk.open(serve));
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const d of desks) d.close();
    await browser?.close();
    for (const l of labs) await l.serve.stop();
  });

  it('collects at two stations and merges both archives from the Studies view, idempotently', async () => {
    const [main, a, b] = desks;
    await main.call('study.create', { name: 'Two stations', tasks: ['test__sculpt', 'test__oneshot'], practiceTask: 'test__reassembly' });
    const { files } = await main.call<{ files: { path: string }[] }>('study.stations', { studyId: STUDY, count: 2 });
    await a.call('study.joinStation', { text: readFileSync(files[0].path, 'utf8') });
    await b.call('study.joinStation', { text: readFileSync(files[1].path, 'utf8') });

    expect(await participant(a, 0.1, 2)).toBe('P1001');
    expect(await participant(a, 0.2, 2)).toBe('P1002');
    expect(await participant(b, 0.3, 2)).toBe('P2001');
    expect(await participant(b, 0.4, 1, true)).toBe('P2002');
    await b.call('study.deleteParticipant', { studyId: STUDY, participant: 'P2002', requestedBy: 'participant' });

    const inbox = join(labs[0].home, 'stations');
    mkdirSync(inbox, { recursive: true });
    for (const station of [a, b]) {
      const archive = await station.call<{ name: string; path: string }>('study.stationArchive', { studyId: STUDY });
      cpSync(archive.path, join(inbox, archive.name));
    }
    const names = readdirSync(inbox).sort();

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(labs[0].serve.url);
    await page.getByTestId('nav-study').click();
    await page.getByTestId(`study-item-${STUDY}`).click();
    for (const [i, name] of names.entries()) {
      await page.getByTestId(`station-merge-${name}`).click();
      await page.getByTestId('stations-done').nth(i).waitFor();
    }
    await expect.poll(() => page.getByTestId('stations-done').allTextContents()).toEqual([
      expect.stringMatching(/station 1: 2 participants added/),
      expect.stringMatching(/station 2: 2 participants added/),
    ]);
    await page.getByTestId('participant-P2001').waitFor();
    await page.getByTestId('stations-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(RESULTS_DIR, 'stations-merged.png'), fullPage: true });

    const results = await Promise.all(desks.map((d) => d.call<StudyResults>('study.results', { studyId: STUDY })));
    expect(results[0].episodes.map(key).sort()).toEqual([...results[1].episodes, ...results[2].episodes].map(key).sort());
    expect(results[0].flow?.counts).toMatchObject({ created: 4, completed: 3, deleted: 1 });
    for (const k of ['created', 'consented', 'declined', 'started', 'withdrawn', 'excluded', 'completed', 'deleted'] as const) expect(results[0].flow?.counts[k], k).toBe((results[1].flow?.counts[k] ?? 0) + (results[2].flow?.counts[k] ?? 0));
    const participants = (await main.call<{ participants: Participant[] }>('study.get', { studyId: STUDY })).participants;
    expect(participants.map((p) => [p.id, p.status])).toEqual([['P1001', 'completed'], ['P1002', 'completed'], ['P2001', 'completed'], ['P2002', 'deleted']]);

    // A second merge of the same archive changes nothing.
    const journal = readFileSync(join(labs[0].home, 'studies', STUDY, 'participants.jsonl'), 'utf8');
    await page.getByTestId(`station-merge-${names[0]}`).click();
    await expect.poll(() => page.getByTestId('stations-done').last().textContent()).toMatch(/station 1: 0 participants added, 2 unchanged, 0 files added/);
    expect(readFileSync(join(labs[0].home, 'studies', STUDY, 'participants.jsonl'), 'utf8')).toBe(journal);
    await page.close();
  });
});
