// Results' analyses show progress and can be cancelled, in a real Chromium against `splatlab
// serve`: a study whose models/ folder holds 300 runs of a scripted model (two played by
// `splatlab eval --study`, the rest copies of them, so the analyses take a while); the
// experimenter presses Compute analyses, sees the progress (episodes read of all), presses Cancel,
// and gets a note instead of figures, with no page errors.
// Screenshots: test-results/analyses-progress.png and analyses-cancelled.png, for a person to look at.
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { buildTestTask } from '../helpers/test-task';
import { withEnv } from '../helpers/env';
import { Grader } from '../../src/main/grader/grader';
import { createLabContext } from '../../src/main/services/context';
import { dispatchCall } from '../../src/main/services/dispatch';
import { createLabServices } from '../../src/main/services/lab';
import { command as evalCommand } from '../../src/main/cli/commands/eval';

const skip = browserMissing();
const RUNS = 300;

async function seed(tasksDir: string, home: string, grader: Grader): Promise<void> {
  const ctx = createLabContext({ gpu: { device: null, status: { path: 'cpu', vendor: '', architecture: '', description: '', summary: '' } }, tasksDir, home, version: '0', transport: 'direct', listTasks: async () => [], grader: async () => grader, poolSize: 1 });
  const out = await dispatchCall(createLabServices(ctx).handlers, 'study.create', { name: 'Pilot', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', protocol: 'matched', order: 'fixed' });
  await ctx.close();
  if (!out.ok) throw new Error(out.message);
  await withEnv({ SPLATLAB_HOME: home }, async () => {
    const io = { out: () => undefined, err: () => undefined };
    expect(await evalCommand.run(['--model', 'scripted:basic', '--tasks', 'test__sculpt', '--runs', '2', '--study', 'pilot', '--tasks-folder', tasksDir, '--device', 'cpu', '--no-lpips'], io)).toBe(0);
  });
  // Copies of run 1 (its log, meta and verdict) as runs 3..RUNS.
  const models = join(home, 'studies', 'pilot', 'models');
  for (const dir of readdirSync(models)) {
    const files = readdirSync(join(models, dir)).filter((f) => f.startsWith('test__sculpt__r1.'));
    for (let k = 3; k <= RUNS; k++) for (const f of files) copyFileSync(join(models, dir, f), join(models, dir, f.replace('__r1.', `__r${k}.`)));
  }
}

describe.skipIf(skip)('Results: analyses with progress and cancel (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-analyses-cancel-e2e-'));
    const tasksDir = join(root, 'tasks');
    const home = join(root, 'home');
    const grader = await Grader.create({ lpipsDir: null });
    await buildTestTask(tasksDir, { size: 32, grader });
    await seed(tasksDir, home, grader);
    grader.destroy();
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('shows the progress and stops on Cancel', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-results').click();
    await page.getByTestId('run-analyses').click();
    // Progress arrives as the episodes are read: "n/300 episodes".
    const text = page.getByTestId('analyses-progress-text');
    await text.filter({ hasText: new RegExp(`\\d+/${RUNS} episodes`) }).waitFor();
    await page.getByTestId('analyses-progress').evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: join(RESULTS_DIR, 'analyses-progress.png') });
    await page.getByTestId('cancel-analyses').click();
    await page.getByTestId('analyses-note').waitFor();
    expect(await page.getByTestId('analyses-note').innerText()).toMatch(/^Analyses cancelled/);
    expect(await page.getByTestId('analyses-progress').count()).toBe(0);
    expect(await page.getByTestId('figure-score-sculpt').count()).toBe(0);
    // The Compute button works again afterwards.
    expect(await page.getByTestId('run-analyses').isEnabled()).toBe(true);
    await page.screenshot({ path: join(RESULTS_DIR, 'analyses-cancelled.png') });
    expect(errors).toEqual([]);
  });
});
