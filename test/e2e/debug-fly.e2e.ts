// The debugger on a real capture's features in a real Chromium against `splatlab serve` (CPU):
// a small generated SH3 .ply (a column along the file's -y) goes up by chunked upload, the user
// turns its up axis to -y (the view re-renders and the frame line says so), switches the SH bands
// to degree 0 (the image changes, the title says the degree), and flies the free camera a step
// forward by keyboard from the focused viewport (the eye moves, the image changes), drags to look
// (not a pixel pick); a key typed into an input does not fly. Screenshots: test-results/debug-fly-*.png.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { plyBytes, shColumn } from '../helpers/sh-scene';

const skip = browserMissing();

const imageSrc = (page: Page): Promise<string | null> => page.getByTestId('debug-image').getAttribute('src');

/** Waits until the view on screen is no longer `before` and nothing is rendering. */
async function changed(page: Page, before: string | null): Promise<string | null> {
  await expect.poll(() => imageSrc(page), { timeout: 60_000 }).not.toBe(before);
  await page.getByTestId('debug-busy').waitFor({ state: 'hidden', timeout: 60_000 });
  return imageSrc(page);
}

describe.skipIf(skip)('debugger: SH bands, up axis and flying on an uploaded capture', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let file: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-debug-fly-'));
    file = join(root, 'column-sh3.ply');
    writeFileSync(file, plyBytes(shColumn(300, 3)));
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_HOME: join(root, 'home'), SPLATLAB_TASKS_DIR: join(root, 'tasks'), SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('opens by upload, turns the up axis, toggles SH bands and flies a step by keyboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 950 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-debug').click();
    await expect.poll(() => page.getByTestId('debug-empty').textContent()).toMatch(/INRIA or PlayCanvas compressed \.ply, SPZ, SOG, antimatter15 \.splat/);
    await page.getByTestId('debug-source-file').click();
    await page.getByTestId('debug-file').setInputFiles(file);
    await page.getByTestId('debug-open').click();
    await expect.poll(() => page.getByTestId('debug-session').textContent(), { timeout: 60_000 }).toContain('column-sh3.ply (INRIA 3DGS .ply (binary_little_endian, SH degree 3)) · 300 Gaussians');
    await expect.poll(() => page.getByTestId('debug-title').textContent(), { timeout: 60_000 }).toContain('SH degree 3 of 3');
    await page.getByTestId('debug-busy').waitFor({ state: 'hidden', timeout: 60_000 });
    expect(await page.getByTestId('debug-frame-line').textContent()).toMatch(/^axes as stored .*nothing rotated$/);
    let src = await imageSrc(page);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-fly-stored.png') });

    // Up axis: the file's -y becomes +Z; the view is the live preview.
    await page.getByTestId('debug-up').selectOption('-y');
    src = await changed(page, src);
    expect(await page.getByTestId('debug-frame-line').textContent()).toMatch(/^up axis -y \(chosen\)/);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-fly-up.png') });

    // SH bands: degree 0 is the flat DC colour.
    await page.getByTestId('debug-sh-0').click();
    src = await changed(page, src);
    expect(await page.getByTestId('debug-title').textContent()).toContain('SH degree 0 of 3');
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-fly-sh0.png') });

    // Fly: focus the viewport, W steps forward; the eye shown on screen moves.
    await page.getByTestId('debug-viewport').focus();
    await page.keyboard.press('KeyW');
    src = await changed(page, src);
    const eye1 = await page.getByTestId('debug-fly-hint').textContent();
    expect(eye1).toMatch(/eye \(/);
    await page.keyboard.press('KeyW');
    src = await changed(page, src);
    const eye2 = await page.getByTestId('debug-fly-hint').textContent();
    expect(eye2).not.toBe(eye1);
    expect(await page.getByTestId('debug-title').textContent()).toContain('SH degree 0 of 3');
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-fly-moved.png') });

    // Drag to look: the view turns about the eye, and the drag is no pixel pick.
    const box = await page.getByTestId('debug-image').boundingBox();
    if (!box) throw new Error('no debugger image on screen');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 10, { steps: 4 });
    await page.mouse.up();
    src = await changed(page, src);
    expect(await page.getByTestId('debug-trace').count()).toBe(0);
    expect(await page.getByTestId('debug-fly-hint').textContent()).toBe(eye2);
    await page.screenshot({ path: join(RESULTS_DIR, 'debug-fly-looked.png') });

    // A W typed into an input stays there: the camera does not move.
    await page.getByTestId('debug-camera-free').click();
    const eyeInput = page.getByTestId('debug-camera').locator('input').first();
    await eyeInput.focus();
    await page.keyboard.press('KeyW');
    await page.waitForTimeout(300);
    expect(await imageSrc(page)).toBe(src);
    expect(await page.getByTestId('debug-fly-hint').textContent()).toBe(eye2);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
