// The import panel's up-axis preview in a real Chromium: a snowman-like capture standing along
// the file's -Y (a COLMAP-style .ply, no cameras) is picked, the preview says -y is a guess and
// draws it upright; choosing +z redraws it lying on its side. Screenshots of both go to
// test-results/import-up-*.png.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { writeSplatFile } from '../../src/main/formats/write';
import { emptySplats } from '../../src/shared/scene/splats';

const skip = browserMissing();

describe.skipIf(skip)('import: up axis with a live preview', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let file: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-import-up-'));
    // Three stacked balls (white, white, a red hat) along -Y: upright only when -Y is up.
    const balls = [{ y: 0, r: 0.5, c: [0.92, 0.92, 0.95] }, { y: -0.75, r: 0.35, c: [0.92, 0.92, 0.95] }, { y: -1.25, r: 0.2, c: [0.85, 0.15, 0.1] }];
    const n = 600;
    const s = emptySplats(n);
    for (let i = 0; i < n; i++) {
      const b = balls[i % 3];
      const t = i * 2.399963229728653;
      const z = 1 - (2 * (i + 0.5)) / n;
      const rad = Math.sqrt(1 - z * z);
      s.means.set([b.r * rad * Math.cos(t), b.y + b.r * z, b.r * rad * Math.sin(t)], i * 3);
      s.scales.set([b.r * 0.25, b.r * 0.25, b.r * 0.25], i * 3);
      s.colors.set(b.c, i * 3);
      s.opacities[i] = 0.9;
    }
    file = join(root, 'snowman.ply');
    await writeSplatFile(file, s, { format: 'ply' });
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_HOME: join(root, 'home'), SPLATLAB_TASKS_DIR: join(root, 'tasks'), SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('shows the guessed up axis upright, and redraws when another is chosen', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-author').click();
    await page.getByTestId('author-tab-import').click();
    await page.getByTestId('author-import-ply').check();
    await page.getByTestId('author-import-files').setInputFiles(file);
    await expect.poll(() => page.getByTestId('author-import-upline').textContent(), { timeout: 60_000 }).toMatch(/INRIA 3DGS \.ply .* 600 Gaussians\. up axis -y is a guess/);
    const upright = await page.getByTestId('author-import-preview-side').getAttribute('src');
    await page.getByTestId('author-import-placement').screenshot({ path: join(RESULTS_DIR, 'import-up-guess.png') });
    await page.getByTestId('author-import-up').selectOption('+z');
    await expect.poll(() => page.getByTestId('author-import-upline').textContent(), { timeout: 60_000 }).toMatch(/up axis \+z \(chosen\)/);
    expect(await page.getByTestId('author-import-preview-side').getAttribute('src')).not.toBe(upright);
    await page.getByTestId('author-import-placement').screenshot({ path: join(RESULTS_DIR, 'import-up-chosen.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
