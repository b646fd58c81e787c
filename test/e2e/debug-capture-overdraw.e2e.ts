// A capture above the debugger's scene limit (an INRIA .ply of 8,000 SH-3 Gaussians generated
// here), uploaded through the Splat file tab: its Overdraw view is the tile rasterizer's, with the
// frame's stage times (project, sort, bin, composite) in the title and the stats row. Screenshot
// test-results/debug-capture-overdraw.png.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { writeSplatFile } from '../../src/main/formats/write';
import { roomScene } from '../../src/main/raster/room-scene';

const skip = browserMissing();

describe.skipIf(skip)('debugger: the overdraw of a capture on the tile rasterizer', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let file: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-debug-overdraw-'));
    file = join(root, 'room-8k.ply');
    await writeSplatFile(file, roomScene(8000, 3, 3), { format: 'ply' });
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_HOME: join(root, 'home'), SPLATLAB_TASKS_DIR: join(root, 'tasks'), SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('shows the overdraw with the stage times', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-debug').click();
    await page.getByTestId('debug-source-file').click();
    await page.getByTestId('debug-file').setInputFiles(file);
    await page.getByTestId('debug-open').click();
    await expect.poll(() => page.getByTestId('debug-session').textContent(), { timeout: 120_000 }).toContain('8000 Gaussians');
    await expect.poll(() => page.getByTestId('debug-title').textContent(), { timeout: 120_000 }).toContain('Rendered RGB');
    await page.getByTestId('debug-tab-overdraw').click();
    await expect.poll(() => page.getByTestId('debug-title').textContent(), { timeout: 120_000 }).toMatch(/Overdraw: Gaussians the tile rasterizer evaluates per pixel \(tile rasterizer: project \d+ ms, sort \d+, bin \d+, composite \d+\)/);
    await page.getByTestId('debug-legend').waitFor();
    const stats = await page.locator('.stats').first().textContent();
    expect(stats).toMatch(/project_ms/);
    expect(stats).toMatch(/composite_ms/);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-capture-overdraw.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
