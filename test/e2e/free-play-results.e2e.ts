// Free play in Results (issue 30 item 6), in a real Chromium against `splatlab serve`: a person
// plays test__sculpt from the Play screen (no study), adds a Gaussian, commits and submits; Results
// (with no study at all) lists the episode under free play with the score its log holds (the one
// score per run), the replay opens on it and renders a held-out view, and the CSV export names it.
// Screenshots at 1280x720 and 1920x1080: test-results/free-play-results-*.png.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { startFreeEpisode } from './study-flow';
import { readTrajectory } from '../../src/main/env/trajectory';

const skip = browserMissing();

describe.skipIf(skip)('free play in Results (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    ({ serve, home } = await startTestLab('splatlab-free-results-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('a submitted free episode shows in Results with its score and replays', async () => {
    const { page, errors } = await startFreeEpisode(browser, serve.url, 'test__sculpt');
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    await page.getByTestId('tool-submit').click();
    await page.getByTestId('submit-yes').click();
    await page.getByTestId('play-submitted').waitFor({ timeout: 60_000 });

    const dir = join(home, 'trajectories');
    const file = readdirSync(dir).find((f) => f.startsWith('test__sculpt-') && f.endsWith('.jsonl'));
    if (!file) throw new Error('no trajectory written');
    await expect.poll(() => readTrajectory(join(dir, file)).end !== null, { timeout: 60_000 }).toBe(true);
    const score = readTrajectory(join(dir, file)).end?.score;
    if (typeof score !== 'number') throw new Error('no final score in the log');

    await page.getByTestId('nav-results').click();
    const section = page.getByTestId('free-play-results');
    await section.waitFor();
    const row = section.locator(`[data-testid="result-row"][data-log="${file}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('test__sculpt');
    expect(await row.getByTestId('result-score').textContent()).toContain(score.toFixed(1));
    expect(await section.textContent()).toContain('free play');
    // Its own tables: a study's results-table and summary-table stay unique on the page.
    await section.getByTestId('free-results-table').waitFor();
    await section.getByTestId('free-summary-table').waitFor();
    expect(await page.getByTestId('results-table').count()).toBe(0);
    await page.screenshot({ path: join(RESULTS_DIR, 'free-play-results-1280.png'), fullPage: true });

    await row.getByRole('button', { name: 'Replay' }).click();
    const replay = page.getByTestId('replay-panel');
    await replay.waitFor();
    expect(await replay.textContent()).toContain(file);
    expect(await replay.textContent()).toContain(`final ${score.toFixed(1)}`);
    await expect.poll(() => replay.locator('img').count(), { timeout: 60_000 }).toBeGreaterThan(0);

    const download = page.waitForEvent('download');
    await page.getByTestId('free-export-episodes').click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('free-play-episodes.csv');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: join(RESULTS_DIR, 'free-play-results-1920.png'), fullPage: true });
    expect(errors).toEqual([]);
  }, 240_000);
});
