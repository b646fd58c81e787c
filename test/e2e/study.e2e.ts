// A whole human-baseline study in a real Chromium against `splatlab serve`: the experimenter
// creates a study and a participant and starts the session; the participant gives consent, reads
// the instructions, plays the practice task and one scored task through the play view (add a
// Gaussian, commit, submit), sees the thank-you screen and never a score; the experimenter ends
// the session, opens the results (a row with a score), replays the trajectory step by step and
// exports CSV. The files on disk are checked; screenshots go to test-results/study-*.png and
// test-results/results-*.png for a person to look at.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { addParticipant, createStudy, endSessionAsExperimenter } from './study-flow';
import { readTrajectory } from '../../src/main/env/trajectory';
import { readJournal } from '../../src/main/study/store';

const skip = browserMissing();
const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS_DIR, `${name}.png`) });

/** Keys that would carry a hidden score in a message to the participant. */
const HIDDEN_KEYS = /"(score|hidden|psnr|ssim|lpips|reward|episodes)"\s*:/i;

describe.skipIf(skip)('study session and results (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    ({ serve, home } = await startTestLab('splatlab-study-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('runs a participant session, then shows, replays and exports the results', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 920 }, acceptDownloads: true });
    const errors: string[] = [];
    const sessionFrames: string[] = [];
    let inSession = false;
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        if (inSession) sessionFrames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'));
      }),
    );
    await page.goto(serve.url);

    // Experimenter: create the study (practice = the one-shot task, one scored task).
    await page.getByTestId('nav-study').click();
    await page.getByTestId('studies-empty').waitFor();
    await createStudy(page, { name: 'E2E pilot', practice: 'test__oneshot', tasks: ['test__sculpt'] }, async () => void (await shot(page, 'study-create')));
    await addParticipant(page, 'P01');
    await page.getByTestId('study-texts-toggle').click();
    await shot(page, 'study-detail');

    // The participant's session: the experimenter views disappear.
    inSession = true;
    await page.getByTestId('start-session-P01').click();
    await page.getByTestId('session-consent').waitFor();
    expect(await page.getByTestId('nav-results').count()).toBe(0);
    expect(await page.getByTestId('nav-study').count()).toBe(0);
    await shot(page, 'study-consent');
    await page.getByTestId('consent-agree').click();
    await page.getByTestId('session-instructions').waitFor();
    expect(await page.getByTestId('session-instructions').textContent()).toContain('Scores are hidden');
    await shot(page, 'study-instructions');
    await page.getByTestId('instructions-continue').click();

    // Practice (one-shot: the single commit ends it). A reload keeps the participant screens.
    await page.getByTestId('session-task-banner').filter({ hasText: 'Practice task' }).waitFor();
    await page.getByTestId('budget-meter').waitFor();
    await page.reload();
    await page.getByTestId('session-task-banner').filter({ hasText: 'Practice task' }).waitFor();
    await page.getByTestId('budget-meter').waitFor();
    expect(await page.getByTestId('nav-results').count()).toBe(0);
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('commit').click();
    await page.getByTestId('play-submitted').waitFor();
    await shot(page, 'study-practice');
    await page.getByTestId('session-continue').click();

    // Scored task 1 of 1: add, commit, submit.
    await page.getByTestId('session-task-banner').filter({ hasText: 'Task 1 of 1' }).waitFor();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 40/40');
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    await page.getByTestId('tool-submit').click();
    await page.getByTestId('submit-yes').click();
    await page.getByTestId('play-submitted').waitFor();
    await shot(page, 'study-task');
    await page.getByTestId('session-continue').click();
    await page.getByTestId('session-thanks').waitFor();
    await shot(page, 'study-thanks');
    inSession = false;
    for (const f of sessionFrames) expect(f.replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/g, '')).not.toMatch(HIDDEN_KEYS);
    expect(sessionFrames.length).toBeGreaterThan(5);

    // End the session (explicit, confirmed); the experimenter views come back. The screen was
    // handed to the participant, so the experimenter unlocks it first (here with their token).
    await endSessionAsExperimenter(page, serve.url);
    await expect.poll(() => page.getByTestId('participant-P01').textContent()).toContain('completed');
    // The tab kept only the participant's token: a reload shows "session over", never an
    // experimenter view, until the experimenter unlocks it again.
    await page.reload();
    await page.getByTestId('session-over').waitFor();
    expect(await page.getByTestId('nav-results').count()).toBe(0);
    await page.getByTestId('session-over-unlock').click();
    await page.getByTestId('unlock-prompt').waitFor();
    await page.getByTestId('unlock-secret').fill(new URL(serve.url).searchParams.get('token') ?? '');
    await page.getByTestId('unlock-submit').click();
    await page.getByTestId('nav-results').waitFor();

    // Results: a row with a score, replay step by step, CSV export.
    await page.getByTestId('nav-results').click();
    await page.getByTestId('results-table').waitFor();
    const row = page.locator('[data-testid="result-row"][data-log="trajectories/P01/test__sculpt.jsonl"]');
    // The cell may also say "without LPIPS" (this lab runs without the weights): the number comes first.
    const score = Number.parseFloat(await row.getByTestId('result-score').textContent() ?? '');
    expect(Number.isFinite(score)).toBe(true);
    await page.getByTestId('summary-table').waitFor();
    await shot(page, 'results-table');
    await page.getByTestId('replay-P01-test__sculpt').click();
    await page.getByTestId('replay-image').waitFor();
    expect(await page.getByTestId('replay-step').textContent()).toContain('submit');
    await page.getByTestId('replay-prev').click();
    await expect.poll(() => page.getByTestId('replay-step').textContent()).toContain('add_gaussians');
    expect(await page.getByTestId('replay-score').textContent()).toBe(score.toFixed(1));
    await page.getByTestId('replay-view').selectOption('H6');
    await page.getByTestId('replay-prev').click();
    await expect.poll(() => page.getByTestId('replay-step').textContent()).toContain('reset');
    await page.getByTestId('replay-next').click();
    await expect.poll(() => page.getByTestId('replay-step').textContent()).toContain('add_gaussians');
    await page.getByTestId('score-line').waitFor({ state: 'attached' });
    await page.getByTestId('replay-panel').scrollIntoViewIfNeeded();
    await shot(page, 'results-replay');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-episodes').click()]);
    expect(download.suggestedFilename()).toBe('e2e-pilot-episodes.csv');
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^source,participant,task,kind_family,measure,practice,/);
    expect(csv).toMatch(/human,P01,test__sculpt,splatbench,SplatScore,false,matched,true,-?\d/);
    expect(csv).toMatch(/human,P01,test__oneshot,splatbench,SplatScore,true,/);

    // A model's trajectory (same format, protocol agent) beside the human one; the lab regrades it.
    const dir = join(home, 'studies', 'e2e-pilot');
    const modelText = readFileSync(join(dir, 'trajectories', 'P01', 'test__sculpt.jsonl'), 'utf8').replace('"player":"P01"', '"player":"bot-1"').replace('"protocol":"matched"', '"protocol":"agent"');
    await page.getByTestId('model-file').setInputFiles({ name: 'bot.jsonl', mimeType: 'text/plain', buffer: Buffer.from(modelText) });
    await page.getByTestId('results-note').filter({ hasText: 'Imported bot-1: test__sculpt' }).waitFor();
    await page.locator('[data-testid="result-row"][data-log="models/bot-1/test__sculpt__r1.jsonl"]').waitFor();
    expect(await page.getByTestId('summary-table').textContent()).toContain('bot-1');
    await page.getByTestId('results-view').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.querySelector('main')?.scrollTo(0, 0));
    await shot(page, 'results-model');
    expect(existsSync(join(dir, 'models', 'bot-1', 'test__sculpt__r1.jsonl'))).toBe(true);
    expect(existsSync(join(dir, 'models', 'bot-1', 'test__sculpt__r1.verdict.json'))).toBe(true);
    expect(errors).toEqual([]);

    // The files on disk.
    expect(JSON.parse(readFileSync(join(dir, 'study.json'), 'utf8'))).toMatchObject({ name: 'E2E pilot', tasks: ['test__sculpt'], practiceTask: 'test__oneshot' });
    const participants = readJournal(readFileSync(join(dir, 'participants.jsonl'), 'utf8'));
    expect(participants).toMatchObject([{ id: 'P01', status: 'completed' }]);
    const scored = readTrajectory(join(dir, 'trajectories', 'P01', 'test__sculpt.jsonl'));
    expect(scored.header).toMatchObject({ task: 'test__sculpt', player: 'P01', protocol: 'matched' });
    expect(scored.steps.map((s) => s.tool)).toEqual(['reset', 'add_gaussians', 'submit']);
    expect(scored.end?.score).toBeCloseTo(score, 1);
    expect(readTrajectory(join(dir, 'trajectories', 'P01', 'test__oneshot.jsonl')).end?.reason).toBe('auto');
    expect(existsSync(join(home, 'studies', 'session.json'))).toBe(false);
  });
});
