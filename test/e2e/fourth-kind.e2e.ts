// The fourth kind in a real Chromium (issue 23 item 2): the fixture kind of
// test/fixtures/kinds/brightest, enabled only by SPLATLAB_KINDS, is bundled into a renderer build of
// its own (src/main/kinds/vite-kinds.ts) and served by `splatlab serve` with the same variable.
// It is listed in its own section, plays in its own view from the Play form (one click on the
// brightest Gaussian), logs, runs in a study (practice and two scored tasks), and its rows reach
// Results and the summary CSV as their own family with their own measure. Resume, replay and MCP
// are covered in Node (test/main/kinds/fourth/fourth-kind.test.ts). Screenshots:
// test-results/fourth-kind-*.png.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { endSessionAsExperimenter, studyToFirstTask } from './study-flow';
import { readTrajectory } from '../../src/main/env/trajectory';
import { splatlabKinds } from '../../src/main/kinds/vite-kinds';
import { BRIGHTEST_KIND_DIR, BRIGHTEST_TASKS, brightestPixel, writeBrightestTasks } from '../fixtures/kinds/brightest/tasks';

const skip = browserMissing();
const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS_DIR, `fourth-kind-${name}.png`) });
/** The play view shows the image at 256 px: the centre of a task pixel on screen. */
const onScreen = (taskId: string, p = brightestPixel(taskId)) => {
  const scale = 256 / (BRIGHTEST_TASKS.find((t) => t.task_id === taskId)?.size ?? 1);
  return { x: (p.x + 0.5) * scale, y: (p.y + 0.5) * scale };
};

describe.skipIf(skip)('a fourth kind from SPLATLAB_KINDS (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-fourth-e2e-'));
    const ui = join(root, 'ui');
    // The app's renderer with the fixture kind bundled (the same Vite plugins as electron.vite.config.ts).
    await build({
      configFile: false, logLevel: 'warn', root: join(process.cwd(), 'src', 'renderer'), base: './',
      plugins: [vue(), splatlabKinds({ SPLATLAB_KINDS: BRIGHTEST_KIND_DIR })],
      build: { outDir: ui, emptyOutDir: true, chunkSizeWarningLimit: 4096, rollupOptions: { input: { index: join(process.cwd(), 'src', 'renderer', 'index.html') } } },
    });
    home = join(root, 'home');
    const tasksDir = join(root, 'tasks');
    writeBrightestTasks(tasksDir);
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips'), SPLATLAB_KINDS: BRIGHTEST_KIND_DIR, SPLATLAB_UI_ROOT: ui });
    browser = await launchBrowser();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('lists it, plays it, runs it in a study and shows it in Results and the export as its own family', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('tasks-brightest').waitFor();
    expect(await page.getByTestId('tasks-brightest').textContent()).toContain('Brightest Gaussian');
    await shot(page, 'tasks');

    // Outside a study: the Play form starts the task and the kind's own view takes over.
    await page.getByTestId('nav-play').click();
    await page.getByTestId('play-task').selectOption('brightest__a');
    await page.getByTestId('play-start').click();
    const image = page.getByTestId('brightest-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(32);
    await shot(page, 'play');
    await image.click({ position: onScreen('brightest__a') });
    await page.getByTestId('play-submitted').waitFor();
    const free = readdirSync(join(home, 'trajectories')).find((f) => f.startsWith('brightest__a'));
    await expect.poll(() => readTrajectory(join(home, 'trajectories', free ?? '')).end?.score).toBe(100);
    await page.getByTestId('play-leave').click();

    // A study of the kind: practice, then two scored tasks (the second answered wrong).
    await studyToFirstTask(page, { name: 'Brightest pilot', practice: 'brightest__p', tasks: ['brightest__a', 'brightest__b'] });
    const clicks: [string, { x: number; y: number } | undefined][] = [['brightest__p', undefined], ['brightest__a', undefined], ['brightest__b', { x: 0, y: 0 }]];
    for (const [taskId, pixel] of clicks) {
      await page.getByTestId('brightest-image').waitFor();
      await expect.poll(() => page.getByTestId('brightest-image').evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(32);
      await page.getByTestId('brightest-image').click({ position: onScreen(taskId, pixel) });
      await page.getByTestId('play-submitted').waitFor();
      await page.getByTestId('session-continue').click();
    }
    await page.getByTestId('session-thanks').waitFor();
    await endSessionAsExperimenter(page, serve.url);

    // Results: the kind's rows, its own family row, its own measure; never pooled with another.
    await page.getByTestId('nav-results').click();
    await page.getByTestId('summary-table').waitFor();
    const rows = await page.getByTestId('summary-row').allTextContents();
    expect(rows.some((r) => r.includes('(all brightest tasks)') && r.includes('correct %') && r.includes('50.0'))).toBe(true);
    expect(rows.some((r) => r.includes('(all tasks)'))).toBe(false);
    await shot(page, 'results');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-summary').click()]);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv).toContain('human,(all brightest tasks),brightest,correct %,2,50');
    expect(errors).toEqual([]);
  });
});
