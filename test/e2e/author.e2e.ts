// The authoring view in a real Chromium against `splatlab serve`: build a small object from
// primitives (three parts added through the UI, one moved with the gizmo, one mirrored), see the
// exact preview and the photo sets, run a short fit with live progress, scramble and re-roll,
// save with the conformance check, then find the new task in the task list and start playing it.
// Screenshots of every screen go to test-results/author-*.png for a person to look at.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { dragGizmoAxis, setField } from './viewport-helpers';
import { listTasks } from '../../src/main/tasks/load';

const skip = browserMissing();

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(RESULTS_DIR, `author-${name}.png`), fullPage: true });
}

describe.skipIf(skip)('author a task (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let tasksDir: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-author-e2e-'));
    tasksDir = join(root, 'tasks');
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: join(root, 'home'), SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('composes, previews, fits, scrambles, saves and plays a new task', async () => {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('tasks-empty').waitFor();
    await page.getByTestId('nav-author').click();
    await page.getByTestId('author-view').waitFor();
    await page.getByTestId('author-name').fill('lamp');
    await page.getByTestId('author-name').press('Tab');
    await shot(page, 'empty');

    // A base (box), a stem (cylinder) and a shade (cone), placed with the inspector.
    await page.getByTestId('author-add-box').click();
    await setField(page, 'ai-pos-2', -0.55);
    await setField(page, 'ai-size-2', 0.15);
    await page.getByTestId('ai-color').fill('#3a5f8b');
    await page.getByTestId('author-add-cylinder').click();
    await setField(page, 'ai-size-1', 0.7);
    await page.getByTestId('author-add-cone').click();
    await setField(page, 'ai-pos-2', 0.5);
    await setField(page, 'ai-size-0', 0.35);
    await page.getByTestId('ai-color').fill('#e8c547');
    expect(await page.getByTestId('part-row').count()).toBe(3);

    // The cone dragged along +X with the gizmo's red arrow, then back with the inspector.
    await dragGizmoAxis(page, 'x', 80);
    expect(Number(await page.getByTestId('ai-pos-0').inputValue())).toBeGreaterThan(0.05);
    // Too far out: the part's row warns inline.
    await setField(page, 'ai-pos-0', 0.8);
    await expect.poll(() => page.getByTestId('part-warning').count()).toBe(1);
    expect(await page.getByTestId('part-warning').textContent()).toContain('outside the bounds cube');
    await setField(page, 'ai-pos-0', 0);
    await expect.poll(() => page.getByTestId('part-warning').count()).toBe(0);

    // A small sphere on the base, mirrored across Y=0: two feet.
    await page.getByTestId('author-add-sphere').click();
    await setField(page, 'ai-pos-1', 0.3);
    await setField(page, 'ai-pos-2', -0.4);
    await setField(page, 'ai-size-0', 0.08);
    await page.getByTestId('author-mirror-y').click();
    expect(await page.getByTestId('part-row').count()).toBe(5);
    expect(Number(await page.getByTestId('ai-pos-1').inputValue())).toBeCloseTo(-0.3, 6);

    await page.getByTestId('author-preview-image').waitFor();
    await page.getByTestId('author-preview-source').selectOption('H3');
    await expect.poll(() => page.getByTestId('author-preview').textContent()).toContain('(H3)');
    await shot(page, 'compose');

    await page.getByTestId('author-sheet-reference').click();
    await page.getByTestId('author-photo-V7').waitFor({ timeout: 60_000 });
    await page.getByTestId('author-sheet-heldout').click();
    await page.getByTestId('author-photo-H7').waitFor({ timeout: 60_000 });
    await shot(page, 'photos');

    await page.getByTestId('author-tab-fit').click();
    await page.getByTestId('author-fit-steps').fill('20');
    await page.getByTestId('author-fit-run').click();
    await expect.poll(() => page.getByTestId('author-fit-progress').textContent(), { timeout: 60_000 }).toContain('done · step 20/20');
    await page.getByTestId('author-anchors').waitFor();
    expect(await page.getByTestId('author-fit-snapshot').count()).toBe(8);
    expect((await page.getByTestId('author-loss-path').getAttribute('d'))?.length ?? 0).toBeGreaterThan(20);
    await shot(page, 'fit');

    await page.getByTestId('author-tab-scramble').click();
    await page.getByTestId('author-scramble-run').click();
    await expect.poll(() => page.locator('[data-testid="author-scramble-parts"] li').count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
    const first = await page.getByTestId('author-scramble-start-view').first().getAttribute('src');
    await page.getByTestId('author-scramble-reroll').click();
    await expect.poll(() => page.getByTestId('author-scramble-start-view').first().getAttribute('src')).not.toBe(first);
    expect(await page.getByTestId('author-scramble-seed').inputValue()).toBe('2');
    await shot(page, 'scramble');

    await page.getByTestId('author-tab-save').click();
    expect(await page.getByTestId('author-save-name').inputValue()).toBe('lamp');
    await page.getByTestId('author-save-run').click();
    await expect.poll(() => page.getByTestId('author-conformance').textContent(), { timeout: 90_000 }).toContain('passed');
    await shot(page, 'save');
    expect((await listTasks(tasksDir)).map((t) => t.id).sort()).toEqual(['lamp__oneshot', 'lamp__reassembly', 'lamp__sculpt']);

    await page.getByTestId('nav-tasks').click();
    await page.getByTestId('play-lamp__reassembly').waitFor();
    await shot(page, 'tasks');
    await page.getByTestId('play-lamp__reassembly').click();
    await page.getByTestId('play-start').click();
    await expect.poll(() => page.getByTestId('budget-gaussians').textContent(), { timeout: 60_000 }).toMatch(/\d+\/300/);
    await shot(page, 'play');
    expect(errors).toEqual([]);
  });
});
