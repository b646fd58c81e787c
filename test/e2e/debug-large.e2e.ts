// A 1M-Gaussian capture opens in the debugger in browser mode through the UI: the file (an INRIA
// .ply generated here, 68 MB) is picked in the Splat file tab, goes up in chunks with a progress
// bar, and the session names the format and the count; a second upload is cancelled midway. (Rendering it, with progress and cancel,
// is the render path's own test.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { writeSplatFile } from '../../src/main/formats/write';
import { emptySplats } from '../../src/shared/scene/splats';

const skip = browserMissing();
const COUNT = 1_000_000;

describe.skipIf(skip)('debugger: a 1M-Gaussian file by chunked upload', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let file: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-debug-large-'));
    const s = emptySplats(COUNT);
    for (let i = 0; i < COUNT; i++) {
      // A disc of Gaussians in a 4 m room, coloured by position (deterministic).
      const t = i * 2.399963229728653;
      const r = 2 * Math.sqrt(i / COUNT);
      s.means.set([r * Math.cos(t), r * Math.sin(t), (i % 97) / 97 - 0.5], i * 3);
      s.scales.set([0.01, 0.01, 0.004], i * 3);
      s.colors.set([(i % 255) / 255, 0.5, 1 - (i % 255) / 255], i * 3);
      s.opacities[i] = 0.8;
    }
    file = join(root, 'room-1m.ply');
    await writeSplatFile(file, s, { format: 'ply' });
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_HOME: join(root, 'home'), SPLATLAB_TASKS_DIR: join(root, 'tasks'), SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('uploads in chunks with progress and opens the scene', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-debug').click();
    await page.getByTestId('debug-source-file').click();
    await page.getByTestId('debug-file').setInputFiles(file);
    await page.getByTestId('debug-open').click();
    await page.getByTestId('debug-upload-progress').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-large-upload.png') });
    await expect.poll(() => page.getByTestId('debug-session').textContent(), { timeout: 120_000 }).toContain(`room-1m.ply (INRIA 3DGS .ply (binary_little_endian, SH degree 0)) · ${COUNT} Gaussians`);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-large-open.png') });
    // The first view of a million Gaussians renders on the pool with progress; Cancel stops it in one line.
    await page.getByTestId('debug-cancel').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('debug-busy').textContent(), { timeout: 60_000 }).toMatch(/\(\d+\/\d+\)/);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-large-render.png') });
    await page.getByTestId('debug-cancel').click();
    await expect.poll(() => page.getByTestId('debug-error').textContent(), { timeout: 60_000 }).toMatch(/cancelled/);
    await page.getByTestId('debug-busy').waitFor({ state: 'hidden', timeout: 60_000 });
    // A second upload, cancelled while it runs: one line, and the open scene stays.
    await page.getByTestId('debug-source-task').click();
    await page.getByTestId('debug-source-file').click();
    await page.getByTestId('debug-file').setInputFiles(file);
    await page.getByTestId('debug-open').click();
    await page.getByTestId('debug-upload-cancel').click({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('debug-source').getByRole('alert').textContent(), { timeout: 60_000 }).toBe('upload cancelled');
    expect(await page.getByTestId('debug-session').textContent()).toContain(`${COUNT} Gaussians`);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
