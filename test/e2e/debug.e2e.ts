// The rasterizer debugger in a real Chromium against `splatlab serve` (CPU mode): open the test
// task's fit, click a pixel and check the contributor list on screen against traceContributors
// computed here with the same scene and camera, switch through every view (screenshots to
// test-results/debug-*.png), compute gradients, export a PNG; then upload a scene JSON and check
// a pixel of it the same way, and look at the light theme.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { buildTestTask } from '../helpers/test-task';
import { Grader } from '../../src/main/grader/grader';
import { loadTask, readFit } from '../../src/main/tasks/load';
import { packRecords } from '../../src/shared/scene/records';
import { traceContributors } from '../../src/shared/raster/cpu';
import { REFERENCE_VIEWS, viewCameras } from '../../src/shared/camera/views';
import { sceneFileJson } from '../../src/shared/scene/input';
import { testFigure } from '../helpers/test-figure';
import type { Camera } from '../../src/shared/raster/types';
import type { GaussianRecord } from '../../src/shared/scene/gaussian';

const skip = browserMissing();
const SIZE = 64;

/**
 * Clicks the centre of camera pixel (x, y) on the debugger image, whatever its display size: the
 * click is sent in the page at the image's box as read in the same task, so a panel still settling
 * around the image (a trace closed, a view switched) cannot move it between the read and the click
 * (under load, mouse clicks at a box read a moment before landed on a neighbouring pixel). The
 * page's own click handler maps it back to a camera pixel, as for a person's click.
 */
async function clickPixel(page: Page, x: number, y: number): Promise<void> {
  const img = page.getByTestId('debug-image');
  await img.waitFor();
  const w = Number(await img.getAttribute('data-width'));
  const h = Number(await img.getAttribute('data-height'));
  await img.evaluate((el, [px, py, pw, ph]) => {
    const r = el.getBoundingClientRect();
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, clientX: r.left + ((px + 0.5) / pw) * r.width, clientY: r.top + ((py + 0.5) / ph) * r.height }));
  }, [x, y, w, h]);
}

/** Clicks camera pixel (x, y), then its rows once the trace shows that pixel (listed). */
async function traceAt(page: Page, x: number, y: number): Promise<{ ids: number[]; alphas: string[] }> {
  await clickPixel(page, x, y);
  return listed(page, x, y);
}

/** The ids and alphas of the contributor rows after the trace for (x, y) is on screen. */
async function listed(page: Page, x: number, y: number): Promise<{ ids: number[]; alphas: string[] }> {
  await expect.poll(() => page.getByTestId('debug-trace').locator('h3').textContent()).toContain(`Pixel (${x}, ${y})`);
  const rows = page.getByTestId('debug-contributor');
  const ids = (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).map(Number);
  const alphas = await page.getByTestId('debug-alpha').allTextContents();
  return { ids, alphas };
}

function expected(records: GaussianRecord[], camera: Camera, x: number, y: number): { ids: number[]; alphas: string[] } {
  const trace = traceContributors(packRecords(records), camera, x, y);
  return { ids: trace.map((c) => records[c.index].id), alphas: trace.map((c) => c.alpha.toFixed(4)) };
}

describe.skipIf(skip)('rasterizer debugger (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let tasksDir: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'splatlab-debug-e2e-'));
    tasksDir = join(root, 'tasks');
    const grader = await Grader.create({ lpipsDir: null });
    await buildTestTask(tasksDir, { size: SIZE, grader });
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: join(root, 'home'), SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('opens a task fit, traces a clicked pixel like the CPU reference, shows every view, exports a PNG', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 }, acceptDownloads: true });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-debug').click();
    await page.getByTestId('debug-view').waitFor();
    await page.getByTestId('debug-task').selectOption('test__sculpt');
    await page.getByTestId('debug-open').click();
    await expect.poll(() => page.getByTestId('debug-session').textContent()).toContain('test__sculpt: reference fit');
    await expect.poll(() => page.getByTestId('debug-title').textContent()).toContain('Rendered RGB');

    const task = await loadTask('test__sculpt', { tasksDir });
    const fit = readFit(task.dir, 'fit');
    const v0 = task.reference[0].camera;
    const picks: [number, number][] = [[32, 32], [28, 40], [36, 24]];
    let total = 0;
    for (const [x, y] of picks) {
      const shown = await traceAt(page, x, y);
      expect(shown).toEqual(expected(fit, v0, x, y));
      total += shown.ids.length;
    }
    expect(total).toBeGreaterThan(0);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-pixel.png') });

    // Every view, with the picked pixel re-traced on it; the held-out camera too.
    const titles: Record<string, RegExp> = { rgb: /Rendered RGB/, coverage: /Coverage/, depth: /Depth of the first/, count: /Contributors per pixel/, tiles: /Tile occupancy/, overdraw: /Overdraw/, gpuDiff: /GPU vs CPU/ };
    for (const [view, title] of Object.entries(titles)) {
      await page.getByTestId(`debug-tab-${view}`).click();
      await expect.poll(() => page.getByTestId('debug-title').textContent()).toMatch(title);
      await listed(page, 36, 24);
      if (view !== 'rgb' && view !== 'gpuDiff') await page.getByTestId('debug-legend').waitFor();
      if (view === 'gpuDiff') expect(await page.getByTestId('debug-note').textContent()).toMatch(/no GPU/);
      await page.screenshot({ path: join(RESULTS_DIR, `debug-${view}.png`) });
    }
    // The free camera frames the scene on its bounds and renders through an explicit camera.
    await page.getByTestId('debug-camera-free').click();
    const before = await page.getByTestId('debug-image').getAttribute('src');
    await page.getByTestId('debug-free-frame').click();
    await expect.poll(() => page.getByTestId('debug-image').getAttribute('src')).not.toBe(before);
    expect(await page.getByTestId('debug-error').count()).toBe(0);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-free-camera.png') });
    await page.getByTestId('debug-camera-view').click();
    await page.getByTestId('debug-view-name').selectOption('V0');

    const maxCount = await (async () => {
      await page.getByTestId('debug-tab-count').click();
      await expect.poll(() => page.getByTestId('debug-title').textContent()).toMatch(/Contributors per pixel/);
      return page.getByTestId('debug-legend-max').textContent();
    })();
    expect(maxCount).toMatch(/max [1-9]/);

    await page.getByTestId('debug-view-name').selectOption('H6');
    await expect.poll(() => page.getByTestId('debug-trace').count()).toBe(0);
    expect(await traceAt(page, 32, 30)).toEqual(expected(fit, task.heldout[6].camera, 32, 30));

    await page.getByTestId('debug-tab-gradients').click();
    await page.getByTestId('debug-gradients-compute').click();
    await expect.poll(() => page.getByTestId('debug-title').textContent()).toMatch(/0\.8 L1 \+ 0\.2 \(1 - SSIM\) = .* vs photo H6/);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-gradients.png') });

    const download = page.waitForEvent('download');
    await page.getByTestId('debug-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^test__sculpt_reference_fit-H6-gradients.*\.png$/);
    const saved = join(root, file.suggestedFilename());
    await file.saveAs(saved);
    expect(Array.from(readFileSync(saved).subarray(0, 8))).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens an uploaded scene JSON on the standard views and traces a pixel; light theme', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await page.goto(serve.url);
    await page.getByTestId('nav-debug').click();
    await page.getByTestId('debug-source-scene').click();
    const records = testFigure();
    await page.getByTestId('debug-file').setInputFiles({ name: 'figure.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(sceneFileJson(records))) });
    await page.getByTestId('debug-open').click();
    await expect.poll(() => page.getByTestId('debug-session').textContent()).toContain(`figure.json · ${records.length} Gaussians`);
    await page.getByTestId('debug-tab-depth').click();
    await expect.poll(() => page.getByTestId('debug-title').textContent()).toMatch(/Depth/);
    const camera = viewCameras(REFERENCE_VIEWS, 256)[0];
    expect(await traceAt(page, 128, 120)).toEqual(expected(records, camera, 128, 120));
    await page.getByRole('button', { name: /light theme/i }).click();
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-scene-light.png') });
    await page.close();
  });
});
