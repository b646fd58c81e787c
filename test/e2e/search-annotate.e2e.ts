// Annotation of a captured room in Chromium against `splatlab serve`: annotator 1 opens a
// generated capture (a .ply written by splat-transform, a .obj mesh), walks with the player's
// keys, writes a question and its answer, marks an answerable and an unanswerable viewpoint and
// sets the start; annotator 2 verifies blind from the start with their own answer and marks; the
// agreement shows; the agreed annotation becomes a task, which is then played by keyboard to an
// answer; the trajectory is correct, successful and regrades identically; the set exports from the
// view's button. Run twice (issue 35): on the capture with a collision mesh, and on the capture
// whose .ply carries degree-1 spherical harmonics and no mesh, so collisions come from the splats'
// density, as a 3DGS reconstruction of a room arrives. Screenshots of the annotation and the goal
// view are saved for a person to look at (test-results/search-annotate*.png).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { readTrajectory } from '../../src/main/env/trajectory';
import { loadAnyTask } from '../../src/main/kinds/registry';
import { regradeSearch } from '../../src/main/kinds/search/regrade';
import type { SearchTask } from '../../src/main/kinds/search/env';
import { writeGeneratedCapture } from '../main/kinds/search/capture-fixture';

const skip = browserMissing();
/** The two captures of one generated room: a mesh collider, or the density of its SH splats. */
const CAPTURES = [
  { name: 'gen-capture', collider: /collider: mesh/, shot: 'search-annotate' },
  { name: 'gen-capture-voxels', collider: /collider: voxels/, shot: 'search-annotate-density' },
] as const;

/** Waits until the navigator is idle (its view rendered), presses a key, and waits for the new pose. */
async function press(page: Page, key: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) {
    await expect.poll(() => page.getByTestId('annotate-mark-yes').isEnabled(), { timeout: 60_000 }).toBe(true);
    const before = await page.getByTestId('annotate-pose').textContent();
    await page.keyboard.press(key);
    await expect.poll(() => page.getByTestId('annotate-pose').textContent(), { timeout: 60_000 }).not.toBe(before);
  }
}

describe.skipIf(skip).each(CAPTURES)('annotate a captured room ($name), verify, export and play (browser mode)', ({ name, collider, shot }) => {
  const TASK = `search__${name}__cube-colour`;
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;
  let tasksDir: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-annotate-e2e-'));
    tasksDir = join(root, 'tasks');
    home = join(root, 'home');
    await writeGeneratedCapture(tasksDir, { sh: name === 'gen-capture-voxels' });
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('annotator 1 annotates, annotator 2 verifies, the agreed task exports and plays', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1250 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId('nav-annotate').click();
    await page.getByTestId('annotate-room').selectOption(`search/captures/${name}.json`);
    await page.getByTestId('annotate-open').click();
    await page.getByTestId('room-view-image').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('annotate-note').textContent()).toMatch(collider);
    // From the middle of the room (1.5, 1.5, 1.25, yaw 0): three steps left, look down at the cube.
    await press(page, 'a', 3);
    await press(page, 'ArrowDown');
    await expect.poll(() => page.getByTestId('annotate-mark-yes').isEnabled()).toBe(true);
    await page.getByTestId('annotate-mark-yes').click();
    await expect.poll(() => page.getByTestId('annotate-marks').locator('li').count()).toBe(1);
    await page.screenshot({ path: join(RESULTS_DIR, `${shot}.png`) });
    // Turn away: the cube leaves the frame; that viewpoint is unanswerable and the start.
    await press(page, 'ArrowUp');
    await press(page, 'ArrowLeft', 3);
    await expect.poll(() => page.getByTestId('annotate-mark-yes').isEnabled()).toBe(true);
    await page.getByTestId('annotate-mark-no').click();
    await page.getByTestId('annotate-set-start').click();
    await page.getByTestId('annotate-annotator').fill('ann-a');
    await page.getByTestId('annotate-id').fill('cube-colour');
    await page.getByTestId('annotate-question').fill('What colour is the cube on the table?');
    await page.getByTestId('annotate-needs').fill('cube');
    await page.getByTestId('annotate-answer').fill('red');
    await page.getByTestId('annotate-extra').fill('scarlet, crimson');
    await page.getByTestId('annotate-save').click();
    await page.getByTestId('annotate-saved').waitFor();

    // Annotator 2: blind, from the start.
    await page.getByTestId('annotation-verify-cube-colour').click();
    await page.getByTestId('verify-question').waitFor();
    await expect.poll(() => page.getByTestId('annotate-marks').locator('li').count()).toBe(0);
    expect(await page.getByTestId('annotate-verify').textContent()).not.toMatch(/scarlet|crimson|red/i);
    await page.getByTestId('room-view-image').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('annotate-mark-yes').isEnabled()).toBe(true);
    await page.getByTestId('annotate-mark-no').click();
    await press(page, 'ArrowRight', 3);
    await press(page, 'ArrowDown');
    await expect.poll(() => page.getByTestId('annotate-mark-yes').isEnabled()).toBe(true);
    await page.getByTestId('annotate-mark-yes').click();
    await expect.poll(() => page.getByTestId('annotate-marks').locator('li').count()).toBe(2);
    await page.getByTestId('verify-annotator').fill('ann-b');
    await page.getByTestId('verify-answer').fill('Scarlet');
    await page.getByTestId('verify-submit').click();
    await page.getByTestId('verify-agreement').waitFor();
    const agreement = await page.getByTestId('verify-agreement').textContent();
    expect(agreement).toMatch(/Agreed/);
    expect(agreement).toMatch(/2\/2 shared viewpoints agree \(100%\), kappa 1\.00/);
    await page.screenshot({ path: join(RESULTS_DIR, `${shot}-verify.png`) });
    const doc = JSON.parse(readFileSync(join(tasksDir, 'search', 'annotations', 'cube-colour.json'), 'utf8'));
    expect(doc.first.annotator).toBe('ann-a');
    expect(doc.first.marks.map((m: { answerable: boolean }) => m.answerable)).toEqual([true, false]);
    expect(doc.first.marks[0].thumbnail).toMatch(/^data:image\/png;base64,/);
    expect(doc.start).toEqual({ x: 1.5, y: 2.25, z: 1.25, yaw: 90, pitch: 0 });
    expect(doc.second).toMatchObject({ annotator: 'ann-b', answer: 'Scarlet' });
    expect(doc.agreement.agreed).toBe(true);

    // The agreed annotation becomes a task and plays by keyboard.
    await page.getByTestId('annotation-task-cube-colour').click();
    await expect.poll(() => page.getByTestId('annotate-message').textContent(), { timeout: 60_000 }).toContain(TASK);
    await page.getByTestId('annotation-play-cube-colour').click();
    await page.getByTestId('play-start').click();
    await page.getByTestId('search-play').waitFor();
    await expect.poll(() => page.getByTestId('search-steps').textContent(), { timeout: 60_000 }).toContain('step 0/25');
    for (const [i, key] of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown'].entries()) {
      await page.keyboard.press(key);
      await expect.poll(() => page.getByTestId('search-steps').textContent(), { timeout: 60_000 }).toContain(`step ${i + 1}/25`);
    }
    await page.getByTestId('search-view').screenshot({ path: join(RESULTS_DIR, `${shot}-goal.png`) });
    await page.getByTestId('search-answer').fill('crimson');
    await page.getByTestId('search-answer').press('Enter');
    await page.getByTestId('search-done').waitFor({ timeout: 60_000 });
    // The task set exports from the Annotate view's button.
    await page.getByTestId('nav-annotate').click();
    await page.getByTestId('annotate-export-set').click();
    await expect.poll(() => page.getByTestId('annotate-message').textContent(), { timeout: 60_000 }).toMatch(/^Exported 1 episode\(s\) over 1 scene\(s\)/);
    const exports = readdirSync(join(home, 'exports'));
    expect(exports).toHaveLength(1);
    expect(readdirSync(join(home, 'exports', exports[0], 'goals'))).toEqual([`${TASK}.png`]);
    expect(errors).toEqual([]);

    const dir = join(home, 'trajectories');
    const file = readdirSync(dir).find((f) => f.startsWith(`${TASK}-`) && f.endsWith('.jsonl'));
    expect(file).toBeDefined();
    const traj = readTrajectory(join(dir, file!));
    expect(traj.end).toMatchObject({ reason: 'stop', correct: true, success: true, steps: 5, collision: 0 });
    const task = (await loadAnyTask(TASK, { tasksDir })) as SearchTask;
    expect(regradeSearch(task, traj).problems).toEqual([]);
  }, 120_000);
});
