// Scoring view-search episodes in Results, in a real Chromium against `splatlab serve`: a study
// over two search tasks with two participants' logs and a scripted model's runs (played through
// SearchEnv beforehand); the experimenter opens Results, sees the search aggregate table and
// plot, rates a free-text answer in the blind rater list, and the accuracy, the "scored by"
// counts and the plot update; the scripted judge marks the rest; the baseline players join.
// Then a third participant plays the study's search tasks in a session (consent, practice, two
// tasks by typed answers) and joins the human pool. Screenshots: test-results/search-results.png,
// test-results/search-session.png.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { addParticipant, endSessionAsExperimenter, handOver } from './study-flow';
import { addHuman, addModel, searchStudy } from '../main/kinds/search/study-fixture';

const skip = browserMissing();
const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS_DIR, `${name}.png`), fullPage: true });

describe.skipIf(skip)('search results and the rater (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;

  beforeAll(async () => {
    const s = await searchStudy();
    await addHuman(s, { search__t1: 'scarlet', search__t2: 'yes' });
    await addHuman(s, { search__t1: 'tomato coloured', search__t2: 'no' });
    await addModel(s, 'scripted-basic', 'search__t1', 'red');
    await addModel(s, 'scripted-basic', 'search__t2', 'no');
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: s.tasksDir, SPLATLAB_HOME: s.home, SPLATLAB_LPIPS_DIR: join(s.home, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('rates a free-text answer and the aggregate table and plot update', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1100 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-results').click();
    await page.getByTestId('search-results').waitFor();
    // Before any mark: humans 'scarlet' 100 (synonym), 'tomato coloured' 0 (no colour word), 'yes' 100, 'no' 0 -> 50.
    await expect.poll(() => page.getByTestId('search-accuracy-humans').textContent()).toMatch(/^50 /);
    await expect.poll(() => page.getByTestId('search-accuracy-scripted-basic').textContent()).toMatch(/^50 /);
    expect(await page.getByTestId('search-scored-by').textContent()).toContain('0 rater marks');
    const plotBefore = await page.locator('[data-testid="search-plot"] svg').innerHTML();
    expect(plotBefore).toContain('humans (n=4)');

    // The rater list: three free-text answers, nobody named; 'tomato coloured' is marked correct.
    const rater = page.getByTestId('search-rater');
    await expect.poll(() => rater.locator('td.given').count()).toBe(3);
    expect(await rater.textContent()).not.toMatch(/P0\d|scripted/);
    const given = await rater.locator('td.given').allTextContents();
    const i = given.indexOf('tomato coloured');
    expect(i).toBeGreaterThanOrEqual(0);
    await page.getByTestId('search-rater-id').fill('R1');
    await page.getByTestId(`search-rate-5-${i}`).click();
    await expect.poll(() => rater.locator('td.given').count()).toBe(2);
    await expect.poll(() => page.getByTestId('search-accuracy-humans').textContent()).toMatch(/^75 /);
    expect(await page.getByTestId('search-scored-by').textContent()).toContain('1 rater marks');
    await expect.poll(() => page.locator('[data-testid="search-plot"] svg').innerHTML()).not.toBe(plotBefore);
    await page.getByTestId('search-group').selectOption('color');
    await expect.poll(() => page.getByTestId('search-accuracy-humans').textContent()).toMatch(/^100 /);
    await page.getByTestId('search-group').selectOption('all');
    // The LLM judge through the scripted runner marks the three free-text answers (the rater's mark still wins).
    await page.getByTestId('search-judge-model').fill('scripted:basic');
    await page.getByTestId('search-judge').click();
    // The judge renders each answer's end and goal views first (E3VS's judge sees both).
    await expect.poll(() => page.getByTestId('search-note').textContent(), { timeout: 120_000 }).toContain('3 judged');
    await expect.poll(() => page.getByTestId('search-scored-by').textContent()).toContain('1 rater marks, 2 judge marks');
    // The baseline players join as sources.
    await page.getByTestId('search-baselines').check();
    await page.getByTestId('search-row-oracle').waitFor();
    // The chart exports as SVG and PNG.
    for (const as of ['svg', 'png']) {
      const download = page.waitForEvent('download');
      await page.getByTestId(`search-export-${as}`).click();
      expect((await download).suggestedFilename()).toBe(`search-study-search-accuracy-all.${as}`);
    }
    await page.getByTestId('search-results').scrollIntoViewIfNeeded();
    await shot(page, 'search-results');
    expect(errors).toEqual([]);
  });

  it('runs a participant session over the search tasks; the new episodes join the human pool', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-study').click();
    await page.getByTestId('study-item-search-study').click();
    await page.getByTestId('study-detail').waitFor();
    await addParticipant(page, 'P03');
    await handOver(page, 'P03');
    // Practice, then the two scored tasks: each answered at its start view by a typed answer.
    for (const [i, answer] of ['red', 'red', 'yes'].entries()) {
      await page.getByTestId('search-play').waitFor();
      await expect.poll(() => page.getByTestId('search-steps').textContent(), { timeout: 60_000 }).toContain('step 0/25');
      if (i === 1) await shot(page, 'search-session');
      await page.getByTestId('search-answer').fill(answer);
      await page.getByTestId('search-answer').press('Enter');
      await page.getByTestId('session-continue').click();
    }
    await page.getByTestId('session-thanks').waitFor();
    await endSessionAsExperimenter(page, serve.url);
    await page.getByTestId('nav-results').click();
    await page.getByTestId('search-results').waitFor();
    await expect.poll(() => page.getByTestId('search-row-humans').textContent()).toMatch(/^humans6 \/ 3/);
    expect(errors).toEqual([]);
  });
});
