// A room furnished with a captured object plays by keyboard in Chromium against `splatlab serve`:
// the task asks what stands behind the cabinet, where the capture-like plant (a splat file read by
// the lab's importer, tasks/search/props/plant.ply) stands. Pause hides the view and refuses keys,
// `?` lists the keys, a reload comes back to the live episode; the keys then walk the oracle's path,
// screenshots are saved for a person to look at (test-results/search-prop-*.png), the answer is
// typed, and the log's header carries only the search option (default_forward).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { readTrajectory } from '../../src/main/env/trajectory';
import { loadAnyTask } from '../../src/main/kinds/registry';
import { regradeSearch } from '../../src/main/kinds/search/regrade';
import type { SearchTask } from '../../src/main/kinds/search/env';
import { playBaseline } from '../../src/shared/kinds/search/players';
import { SEARCH_KEYS } from '../../src/renderer/kinds/search/keys';

const skip = browserMissing();
const TASK = 'search__room-24__search-2-1';
const ROOM = 'room-24';

describe.skipIf(skip)('a room with a captured prop, by keyboard (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;
  let tasksDir: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-search-prop-'));
    tasksDir = join(root, 'tasks');
    home = join(root, 'home');
    mkdirSync(join(tasksDir, 'search', 'rooms'), { recursive: true });
    mkdirSync(join(tasksDir, 'search', 'props'), { recursive: true });
    copyFileSync(join('tasks', `${TASK}.json`), join(tasksDir, `${TASK}.json`));
    copyFileSync(`tasks/search/rooms/${ROOM}.json`, join(tasksDir, 'search', 'rooms', `${ROOM}.json`));
    copyFileSync('tasks/search/props/plant.ply', join(tasksDir, 'search', 'props', 'plant.ply'));
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('pauses, helps, survives a reload, walks to the plant and answers', async () => {
    const task = (await loadAnyTask(TASK, { tasksDir })) as SearchTask;
    expect(task.scene.room?.nodes.some((n) => n.capture?.file === 'search/props/plant.ply')).toBe(true);
    const calls = playBaseline('oracle', task.spec, task.scene.collider, task.scene.visibility, new Map());
    const moves = calls.slice(0, -1).map((c) => SEARCH_KEYS.find((k) => k.tool === c.tool)!.key);
    expect(moves.length).toBe(task.spec.distance);

    const page = await browser.newPage({ viewport: { width: 1100, height: 1100 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId(`play-${TASK}`).click();
    // Only the kind's own options: no SplatBench protocol or outline aid for a search task.
    await page.getByTestId('play-start-form').waitFor();
    expect(await page.getByTestId('play-protocol').count()).toBe(0);
    expect(await page.getByTestId('play-overlay-aid').count()).toBe(0);
    await page.getByTestId('play-start').click();
    await page.getByTestId('search-play').waitFor();
    const steps = () => page.getByTestId('search-steps').textContent();
    await expect.poll(steps, { timeout: 60_000 }).toContain('step 0/25');
    expect(await page.getByTestId('search-question').textContent()).toContain('What object is behind the cabinet?');

    await page.keyboard.press('?');
    await page.getByTestId('search-help').waitFor();
    expect(await page.getByTestId('search-help').textContent()).toContain('move forward');
    await page.keyboard.press('Escape');
    await page.getByTestId('search-help').waitFor({ state: 'detached' });

    await page.getByTestId('search-pause').click();
    await page.getByTestId('search-paused').waitFor();
    await page.keyboard.press(moves[0]);
    expect(await steps()).toContain('step 0/25');
    expect(await page.getByTestId('search-view').isVisible()).toBe(false);
    await page.getByTestId('search-resume').click();
    await page.getByTestId('search-paused').waitFor({ state: 'detached' });

    await page.keyboard.press(moves[0]);
    await expect.poll(steps, { timeout: 60_000 }).toContain('step 1/25');
    await page.reload();
    await page.getByTestId('search-play').waitFor({ timeout: 60_000 });
    await expect.poll(steps, { timeout: 60_000 }).toContain('step 1/25');

    for (const [i, key] of moves.slice(1).entries()) {
      await page.keyboard.press(key);
      await expect.poll(steps, { timeout: 60_000 }).toContain(`step ${i + 2}/25`);
    }
    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.getByTestId('search-view').screenshot({ path: join(RESULTS_DIR, 'search-prop-goal.png') });
    await page.screenshot({ path: join(RESULTS_DIR, 'search-prop-play.png') });
    await page.getByTestId('search-answer').fill('a potted plant');
    await page.getByTestId('search-answer').press('Enter');
    await page.getByTestId('search-done').waitFor({ timeout: 60_000 });
    expect(errors).toEqual([]);

    const dir = join(home, 'trajectories');
    const file = readdirSync(dir).find((f) => f.startsWith(`${TASK}-`) && f.endsWith('.jsonl'));
    const traj = readTrajectory(join(dir, file!));
    expect(traj.header?.protocol_options).toEqual({ default_forward: true });
    expect(traj.end).toMatchObject({ reason: 'stop', answer_read: 'plant', correct: true, success: true, steps: moves.length + 1 });
    expect(regradeSearch(task, traj).problems).toEqual([]);
  }, 300_000);
});
