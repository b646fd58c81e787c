// Issue 25, a relation block for people: a study with a practice block (feedback) and a
// 20-trial scored block drawn from a dataset's test split (2 per environment x task x class
// cell of the forest, and 4 attention checks), played by keyboard only in a real Chromium
// against `splatlab serve`. Every trial opens with a fixation cross (500 ms) and its reaction
// time runs from the image's paint; a break screen comes after trial 10 (the participant rests
// there 2 s: paused time, out of trial 11's server time). After the 8th answer
// the server is killed (kill -9) and started again on the same home and port: the same page
// reconnects and the block resumes at trial 9. The log holds every trial once with its reaction
// time and the server's receipt time. A scripted model then runs the same block (`splatlab eval
// --study`), and Results shows per-cell accuracy with intervals, reaction times and the
// confusion matrices for people beside the model and the paper's probe figures.
// Screenshots: test-results/relation-block-*.png.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, startTestLab, type ServeProcess } from './harness';
import { endSessionAsExperimenter, studyToFirstTask } from './study-flow';
import { readTrajectory } from '../../src/main/env/trajectory';
import { episodeTimes } from '../../src/shared/env/person-time';
import { RelationEndSchema } from '../../src/shared/kinds/relation/kind';
import { DatasetConfigSchema } from '../../src/shared/kinds/relation/dataset';
import { generateDataset } from '../../src/main/kinds/relation/generate';
import { writeRelationBlock } from '../../src/main/kinds/relation/block';

const skip = browserMissing();
const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS_DIR, `${name}.png`), fullPage: true });
const KEYS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
const BLOCK = 'relation__block__e2e';

describe.skipIf(skip)('a relation block in a study, with a crash mid-block (browser mode)', () => {
  let serve: ServeProcess | undefined;
  let browser: Browser;
  let home: string;
  let tasksDir: string;

  beforeAll(async () => {
    ({ serve, home, tasksDir } = await startTestLab('splatlab-relation-block-e2e-'));
    const dataset = join(dirname(home), 'dataset');
    const config = DatasetConfigSchema.parse({ seed: 5, environments: ['forest'], counts: { ego: 24, allo: 24 }, splits: [0.5, 0, 0.5], samples: 1, allowEmptySplits: true });
    await generateDataset(dataset, config, { sheets: false });
    writeRelationBlock(tasksDir, dataset, { name: 'e2e', perCell: 2, practice: 4, catchTrials: 4, seed: 3, breakEvery: 10 });
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  /** Waits for trial n of the current block to be on screen and answers it by keyboard. */
  async function answerTrial(page: Page, n: number): Promise<void> {
    const trial = page.locator(`[data-testid="relation-trial"][data-trial="${n}"]`);
    await trial.locator('xpath=.').waitFor();
    if (await page.getByTestId('relation-break').count()) {
      await page.keyboard.press(' ');
    }
    await page.locator(`[data-testid="relation-trial"][data-trial="${n}"][data-ready="true"]`).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(120); // a reaction time above zero, whatever the machine
    if (n % 3 === 0) await page.keyboard.press('2');
    await page.keyboard.press(await keyFor(page, n));
  }

  /** An attention check names its key; the other trials get the keys in turn. */
  async function keyFor(page: Page, n: number): Promise<string> {
    const check = /^Attention check: .* answer (front|back|left|right)\b/.exec((await page.getByTestId('relation-question').textContent()) ?? '');
    return check ? KEYS[['front', 'back', 'left', 'right'].indexOf(check[1])] : KEYS[n % 4];
  }

  it('plays practice and a 20-trial block by keyboard, survives kill -9 mid-block, and reaches Results beside a model and the paper', async () => {
    const first = serve;
    if (!first) throw new Error('no server');
    const port = new URL(first.url).port;
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(first.url);
    // Every phase change of every trial, with its time, as the page saw it (installed once the
    // hand-over has navigated the tab to the participant's page).
    await studyToFirstTask(page, { name: 'Relation block', practice: `${BLOCK}__practice`, tasks: [BLOCK] }, { beforeConsent: () => page.evaluate(() => {
      const seen: { trial: string | null; phase: string | null; t: number }[] = [];
      Object.assign(globalThis, { relationPhases: seen });
      new MutationObserver(() => {
        const el = document.querySelector('[data-testid="relation-trial"]');
        const phase = el?.getAttribute('data-phase') ?? null, trial = el?.getAttribute('data-trial') ?? null;
        const last = seen.at(-1);
        if (el && (last?.phase !== phase || last?.trial !== trial)) seen.push({ trial, phase, t: performance.now() });
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase', 'data-trial'] });
    }) });

    // Practice: four trials with feedback, the whose-view diagram beside the question.
    await page.getByTestId('session-task-banner').filter({ hasText: 'Practice task' }).waitFor();
    for (let i = 1; i <= 4; i++) {
      await answerTrial(page, i);
      if (i === 1) await page.locator('[data-testid^="relation-diagram-"]').waitFor();
      if (i < 4) await page.getByTestId('relation-feedback').waitFor();
    }
    await page.getByTestId('play-submitted').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-continue');
    await page.keyboard.press('Enter');

    // The scored block: eight answers, then the server dies.
    await page.getByTestId('session-task-banner').filter({ hasText: 'Task 1 of 1' }).waitFor();
    for (let n = 1; n <= 8; n++) {
      await answerTrial(page, n);
      if (n === 2) await shot(page, 'relation-block-trial');
    }
    await page.locator('[data-testid="relation-trial"][data-trial="9"]').waitFor();
    first.child.kill('SIGKILL');
    serve = undefined;
    await page.getByTestId('connection-lost').waitFor({ timeout: 60_000 });
    const root = dirname(home);
    serve = await startServe(['--device', 'cpu', '--port', port], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    await page.getByTestId('connection-lost').waitFor({ state: 'detached', timeout: 60_000 });
    // Trial 9 is still on screen; an answer sent before the episode is back is lost, and the
    // trial stays answerable (timed from its own paint), so the participant presses again.
    await expect.poll(async () => {
      if (await page.locator('[data-testid="relation-trial"][data-trial="9"][data-ready="true"]').count()) await page.keyboard.press(await keyFor(page, 9));
      return page.locator('[data-testid="relation-trial"][data-trial="10"]').count();
    }, { timeout: 60_000, interval: 2000 }).toBe(1);
    for (let n = 10; n <= 20; n++) {
      if (n === 11) {
        await page.getByTestId('relation-break').waitFor();
        await shot(page, 'relation-block-break');
        // The participant rests 2 s on the break screen: paused time, not trial 11's (issue 36).
        await page.waitForTimeout(2000);
      }
      await answerTrial(page, n);
    }
    await page.getByTestId('play-submitted').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-continue');
    await page.keyboard.press('Enter');
    await page.getByTestId('session-thanks').waitFor();

    // Every trial of the page opened with a fixation (500 ms) before its stimulus; the page's
    // observer stamps each phase when the DOM changes, up to a frame late, hence 450.
    const phases = await page.evaluate(() => (globalThis as unknown as { relationPhases: { trial: string; phase: string; t: number }[] }).relationPhases);
    for (let n = 1; n <= 20; n++) {
      const mine = phases.filter((p) => p.trial === String(n));
      const fix = mine.find((p) => p.phase === 'fixation'), stim = mine.find((p) => p.phase === 'stimulus' && fix && p.t > fix.t);
      expect(fix, `trial ${n} fixation`).toBeDefined();
      expect(stim!.t - fix!.t).toBeGreaterThanOrEqual(450);
    }

    // The log: one per block, every trial once with its reaction time and the server's time.
    const dir = join(home, 'studies', 'relation-block');
    const logPath = join(dir, 'trajectories', 'P01', `${BLOCK}.jsonl`);
    const traj = readTrajectory(logPath);
    expect(traj.badLines).toEqual([]);
    const answered = traj.steps.filter((s) => s.step > 0 && s.tool === 'answer' && s.ok !== false);
    expect(answered.map((s) => (s as { trial?: number }).trial)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(traj.times.map((t) => t.event)).toContain('restart');
    const end = RelationEndSchema.parse(traj.end);
    expect(end.trials).toHaveLength(20);
    expect(end.trials.every((t) => t.answer !== null && (t.rt_ms ?? 0) >= 120 && typeof t.server_ms === 'number')).toBe(true);
    expect(end.trials.filter((t) => t.catch)).toHaveLength(4);
    expect(new Set(end.trials.map((t) => t.params)).size).toBe(16);
    // The break is rest: paused in the log, and out of trial 11's server time (which would
    // otherwise hold the 2 s break besides the fixation and the reaction time).
    const clock = episodeTimes({ started: traj.header?.started ?? '', steps: traj.steps, times: traj.times, end: traj.end ?? { t: '' } }).clock;
    expect(clock.pausedMs).toBeGreaterThanOrEqual(2000);
    expect(end.trials[10].server_ms ?? Infinity).toBeLessThan((end.trials[10].rt_ms ?? 0) + 2000);

    // The experimenter takes the screen back; a scripted model runs the same block.
    await endSessionAsExperimenter(page, serve.url);
    const ev = spawnSync(process.execPath, ['src/main/cli/splatlab.mjs', 'eval', '--model', 'scripted:front', '--tasks', BLOCK, '--study', 'relation-block', '--tasks-folder', tasksDir, '--device', 'cpu'], {
      env: { ...process.env, SPLATLAB_HOME: home, SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') }, encoding: 'utf8', timeout: 300_000,
    });
    expect(ev.status, `${ev.stdout}\n${ev.stderr}`).toBe(0);
    const modelLogs = readdirSync(join(dir, 'models'), { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
    expect(modelLogs).toHaveLength(1);

    await page.getByTestId('nav-results').click();
    await page.getByTestId('relation-study').waitFor();
    const human = end.trials.filter((t) => !t.catch);
    const egoAll = human.filter((t) => t.task === 'ego');
    const egoPct = `${((100 * egoAll.filter((t) => t.correct).length) / egoAll.length).toFixed(0)}%`;
    expect(await page.getByTestId('relation-cell-human-forest-ego').textContent()).toContain(egoPct);
    expect(await page.getByTestId('relation-cell-human-forest-ego').textContent()).toMatch(/\[\d+%, \d+%\] n=8/);
    // The scripted model says front to every trial: a quarter of each task's trials.
    // One name per model (issue 36): the runner's player name, scripted:front.
    const model = (id: string) => page.locator(`[data-testid^="${id}-model:scripted:front"]`);
    expect(await model('relation-cell').and(page.locator('[data-testid$="-forest-allo"]')).textContent()).toContain('25%');
    await page.getByTestId('relation-matrix-human-ego').waitFor();
    await model('relation-matrix').and(page.locator('[data-testid$="-allo"]')).waitFor();
    expect(await page.getByTestId('relation-rtdist-human-ego').textContent()).toMatch(/median \d+\.\d\d s/);
    expect(await page.getByTestId('relation-cells').textContent()).toContain('96.2%'); // VGGT, forest, ego, efficient probe
    expect(await page.getByTestId('relation-paper-source').textContent()).toContain('arXiv:2601.11729');
    expect(await page.getByTestId('relation-checks').textContent()).toMatch(/Attention checks, people: 4\/4 passed/);
    // The whole panel: the older summary table above, the study tables below.
    await page.getByTestId('relation-results').screenshot({ path: join(RESULTS_DIR, 'relation-block-results.png') });
    await page.getByTestId('relation-study').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(RESULTS_DIR, 'relation-block-results-study.png') });
    expect(errors).toEqual([]);
  });
});
