// The paper from a study played in a real Chromium against `splatlab serve` (issue 36): a person
// plays the one-shot practice, sculpt and reassembly through the UI (one sphere and a submit
// each), a "model" whose runs replay that person's calls is imported over LabApi (verified and
// regraded on import), and the archive the Results button downloads holds paper/ with
// SplatBench's tables in CSV, Markdown and LaTeX. The independent Python recompute
// (test/fixtures/paper/recompute.py) needs the search and relation tables too, so it runs in
// test/main/studies/paper.test.ts, not here.
// Search and relation are not played here (test/main/studies/paper.test.ts covers all five kinds).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { labCall, studyToFirstTask } from './study-flow';

const skip = browserMissing();
const TABLES = ['splatbench-leaderboard', 'splatbench-by-kind', 'splatbench-mirror', 'splatbench-best-final', 'splatbench-score-over-calls'];

describe.skipIf(skip)('the paper from a study played in the browser', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    ({ serve, home } = await startTestLab('splatlab-paper-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  /** One sphere committed; submitted where the task has a submit (one-shot ends at its commit). */
  async function playOne(page: Page, submit: boolean): Promise<void> {
    await page.getByTestId('budget-meter').waitFor();
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('commit').click();
    if (submit) {
      await page.getByTestId('tool-submit').click();
      await page.getByTestId('submit-yes').click();
    }
    await page.getByTestId('play-submitted').waitFor();
    await page.getByTestId('session-continue').click();
  }

  it('writes paper/ into the archive Results downloads', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await studyToFirstTask(page, { name: 'Paper', practice: 'test__oneshot', tasks: ['test__sculpt', 'test__reassembly'] });
    await playOne(page, false);
    await playOne(page, true);
    await playOne(page, true);
    await page.getByTestId('session-thanks').waitFor();
    // The experimenter ends the session (unlocking with their token), as study.e2e.ts does.
    await page.getByTestId('session-end').click();
    await page.getByTestId('unlock-prompt').waitFor();
    await page.getByTestId('unlock-secret').fill(new URL(serve.url).searchParams.get('token') ?? '');
    await page.getByTestId('unlock-submit').click();
    await page.getByTestId('session-end-yes').click();
    await page.getByTestId('study-detail').waitFor();

    const base = new URL(serve.url);
    const desk = `ws://${base.host}/lab?token=${base.searchParams.get('token')}`;
    for (const task of ['test__sculpt', 'test__reassembly']) {
      const human = readFileSync(join(home, 'studies', 'paper', 'trajectories', 'P01', `${task}.jsonl`), 'utf8');
      await labCall(desk, 'study.importModel', { studyId: 'paper', model: 'replay-bot', text: human.replace('"player":"P01"', '"player":"replay-bot"').replace('"protocol":"matched"', '"protocol":"agent"') });
    }

    await page.goto(serve.url);
    await page.getByTestId('nav-results').click();
    await page.getByTestId('paired-table').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-archive').click()]);
    const files = unzipSync(readFileSync((await download.path()) as string));
    const names = Object.keys(files).map((n) => n.slice(n.indexOf('/') + 1));
    for (const t of TABLES) for (const ext of ['csv', 'md', 'tex']) expect(names, `${t}.${ext}`).toContain(`paper/${t}.${ext}`);
    await page.screenshot({ path: join(RESULTS_DIR, 'paper-results.png') });
    expect(errors).toEqual([]);
  }, 300_000);
});
