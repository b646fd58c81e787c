// The first screen in a real browser against `splatlab serve`: title, GPU status, the task list
// (or its empty state); a screenshot goes to test-results/ for a person to look at.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';

const skip = browserMissing();

describe.skipIf(skip)('first screen (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;

  beforeAll(async () => {
    serve = await startServe();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('shows the lab, its GPU path and the task list', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await expect(page.title()).resolves.toBe('SplatLab');
    await page.getByRole('heading', { name: 'SplatLab' }).waitFor();
    const gpu = page.getByTestId('gpu-status');
    await gpu.filter({ hasText: /GPU: (hardware|SwiftShader|none)/ }).waitFor();
    await page.getByTestId('task-list').waitFor();
    const rows = await page.getByTestId('task-row').count();
    const empty = await page.getByTestId('tasks-empty').count();
    expect(rows > 0 || empty === 1).toBe(true);
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    await page.screenshot({ path: join(RESULTS_DIR, 'first-screen.png') });
    await page.getByRole('button', { name: /Light theme/ }).click();
    await page.screenshot({ path: join(RESULTS_DIR, 'first-screen-light.png') });
    expect(errors).toEqual([]);
  });

  it('shows a clear error when the token is missing', async () => {
    const page = await browser.newPage();
    await page.goto(serve.url.replace(/\?token=.*/, ''));
    await page.getByTestId('load-error').waitFor();
    expect(await page.getByTestId('load-error').textContent()).toContain('cannot connect');
  });
});
