// Relation trials in a study, in a real Chromium against `splatlab serve`: the experimenter makes
// a study of 10 relation trials (counterbalanced) with the relation practice block; the
// participant answers the practice trials (feedback shown) and the 10 trials by keyboard only
// (arrow keys, a confidence key, Enter to go on); Results shows accuracy and reaction times that
// match the logs, the confusion matrix, and the per-trial CSV export holds every answer with its
// reaction time; a model's runs of the same trials appear beside the human's. Screenshots:
// test-results/relation-*.png.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { endSessionAsExperimenter, studyToFirstTask } from './study-flow';
import { readTrajectory } from '../../src/main/env/trajectory';
import { RelationEndSchema } from '../../src/shared/kinds/relation/kind';

const skip = browserMissing();
const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS_DIR, `${name}.png`) });
const REPO_TASKS = join(process.cwd(), 'tasks');
/** Ten trials over all five environments, both tasks and several triples. */
const TRIALS = [
  'forest__tree-rock__ego', 'forest__tent-bear__allo', 'desert__cactus-camel__ego', 'desert__rock-truck__allo',
  'winter_town__snowman-husky__ego', 'winter_town__tree-deer__allo', 'bridge__trash_bin-bike__ego', 'bridge__trash_bin-vespa__allo',
  'city__hydrant-taxi__ego', 'city__cone-bike__allo',
].map((t) => `relation__${t}`);
const KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];

describe.skipIf(skip)('relation trials in a study (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    let tasksDir: string;
    ({ serve, home, tasksDir } = await startTestLab('splatlab-relation-e2e-'));
    // The committed relation trials (specs and hidden parameters) join the test task.
    cpSync(join(REPO_TASKS, 'relation'), join(tasksDir, 'relation'), { recursive: true });
    for (const id of [...TRIALS, 'relation__practice']) cpSync(join(REPO_TASKS, `${id}.json`), join(tasksDir, `${id}.json`));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('a participant answers 10 trials by keyboard; accuracy and reaction times reach Results and the export', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);

    // Outside a study: the Play screen's form starts a relation task and its own view takes over.
    await page.getByTestId('nav-play').click();
    await page.getByTestId('play-task').selectOption('relation__city__hydrant-taxi__ego');
    await page.getByTestId('play-start').click();
    await page.locator('[data-testid="relation-play-view"] [data-testid="relation-trial"][data-ready="true"]').waitFor();
    await page.keyboard.press('r');
    await page.getByTestId('play-submitted').waitFor();
    await page.getByTestId('play-leave').click();

    await studyToFirstTask(page, { name: 'Relation pilot', practice: 'relation__practice', tasks: TRIALS });

    // Practice block: four trials, feedback after each (by keyboard).
    await page.getByTestId('session-task-banner').filter({ hasText: 'Practice task' }).waitFor();
    for (let i = 1; i <= 4; i++) {
      await page.locator(`[data-testid="relation-trial"][data-trial="${i}"][data-ready="true"]`).waitFor();
      if (i === 2) await shot(page, 'relation-practice');
      await page.keyboard.press(KEYS[i % 4]);
      if (i < 4) await page.getByTestId('relation-feedback').waitFor();
    }
    await page.getByTestId('play-submitted').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-continue');
    await page.keyboard.press('Enter');

    // Ten scored trials: an answer key (a confidence key first on every other trial), then Enter.
    for (let n = 1; n <= 10; n++) {
      await page.getByTestId('session-task-banner').filter({ hasText: `Task ${n} of 10` }).waitFor();
      await page.locator('[data-testid="relation-trial"][data-ready="true"]').waitFor();
      expect(await page.getByTestId('relation-question').textContent()).toMatch(/\(reference\).*\(target\)|\(target\).*\(reference\)/);
      if (n === 1) await shot(page, 'relation-trial');
      await page.waitForTimeout(150); // a reaction time above zero, whatever the machine
      if (n % 2 === 0) await page.keyboard.press('3');
      await page.keyboard.press(KEYS[n % 4]);
      await page.getByTestId('play-submitted').waitFor();
      expect(await page.getByTestId('relation-feedback').count()).toBe(0);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-continue');
      await page.keyboard.press('Enter');
    }
    await page.getByTestId('session-thanks').waitFor();
    // The screen was handed to the participant: the experimenter unlocks it with their token.
    await endSessionAsExperimenter(page, serve.url);

    // The truth from the logs: accuracy and the median reaction time the Results must show.
    const dir = join(home, 'studies', 'relation-pilot');
    const ends = TRIALS.map((id) => RelationEndSchema.parse(readTrajectory(join(dir, 'trajectories', 'P01', `${id}.jsonl`)).end));
    const trials = ends.map((e) => e.trials[0]);
    expect(trials.every((t) => t.answer !== null && (t.rt_ms ?? 0) >= 150)).toBe(true);
    expect(trials.filter((t) => t.confidence === 3)).toHaveLength(5);
    const correct = trials.filter((t) => t.correct).length;
    const rts = trials.map((t) => t.rt_ms as number).sort((a, b) => a - b);
    const median = (rts[4] + rts[5]) / 2;

    await page.getByTestId('nav-results').click();
    await page.getByTestId('relation-results').waitFor();
    expect(await page.getByTestId('relation-acc-human-all').textContent()).toContain(`${(correct * 10).toFixed(0)}%`);
    expect(await page.getByTestId('relation-rt-human-all').textContent()).toBe(`${(median / 1000).toFixed(2)} s`);
    for (const g of ['ego', 'allo', 'forest', 'city', 'bridge/trash_bin-bike']) await page.getByTestId(`relation-row-${g}`).waitFor();
    const matrix = await page.getByTestId('relation-matrix-human-ego').textContent();
    expect(matrix).toContain('truth');
    // One set of matrices (the study block's, per series), and the paper table scrolls in its box at 1400 px.
    expect(await page.locator('[data-testid^="relation-confusion-"]').count()).toBe(0);
    expect(await page.locator('[data-testid^="relation-matrix-"]').count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByTestId('relation-results').scrollIntoViewIfNeeded();
    await shot(page, 'relation-results');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('relation-export').click()]);
    expect(download.suggestedFilename()).toBe('relation-pilot-relation-trials.csv');
    const csv = readFileSync((await download.path()) as string, 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('who,answerer,taskId,trial,environment,triple,task,truth,answer,correct,rtMs,confidence,serverMs,catch,timedOut,unparsed');
    expect(csv).toHaveLength(11);
    for (const t of TRIALS) expect(csv.some((l) => l.startsWith(`human,P01,${t},1,`))).toBe(true);
    expect(csv.slice(1).filter((l) => l.includes(',true,')).length).toBe(correct);

    // A model's runs of the same trials (as `splatlab eval --study` stores them) sit beside the human.
    for (const id of TRIALS) {
      const text = readFileSync(join(dir, 'trajectories', 'P01', `${id}.jsonl`), 'utf8').replace('"player":"P01"', '"player":"bot-1"').replace('"protocol":"matched"', '"protocol":"agent"');
      mkdirSync(join(dir, 'models', 'bot-1'), { recursive: true });
      writeFileSync(join(dir, 'models', 'bot-1', `${id}__r1.jsonl`), text);
    }
    await page.getByTestId('nav-study').click();
    await page.getByTestId('nav-results').click();
    await page.getByTestId('relation-results').waitFor();
    await expect.poll(() => page.getByTestId('relation-acc-model-all').textContent()).toContain(`${(correct * 10).toFixed(0)}%`);
    await page.getByTestId('relation-matrix-model:bot-1-allo').waitFor();
    expect(errors).toEqual([]);
  });
});
