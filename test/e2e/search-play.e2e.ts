// A person plays a search task by keyboard in Chromium against `splatlab serve`: the keys walk the
// BFS oracle's path to an answerable view, a screenshot of that goal view is saved for a person to
// look at (test-results/search-goal.png), the answer is typed and Enter stops the episode; the
// trajectory on disk then regrades identically and no message carried the answer.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { answerAndReadLog } from './search-flow';
import { loadAnyTask } from '../../src/main/kinds/registry';
import { regradeSearch } from '../../src/main/kinds/search/regrade';
import type { SearchTask } from '../../src/main/kinds/search/env';
import { playBaseline } from '../../src/shared/kinds/search/players';
import { SEARCH_KEYS } from '../../src/renderer/kinds/search/keys';

const skip = browserMissing();
const TASK = 'search__room-11__shape-5-1';

describe.skipIf(skip)('play a search task by keyboard (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;
  let tasksDir: string;

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-search-e2e-'));
    tasksDir = join(root, 'tasks');
    home = join(root, 'home');
    mkdirSync(join(tasksDir, 'search', 'rooms'), { recursive: true });
    copyFileSync(join('tasks', `${TASK}.json`), join(tasksDir, `${TASK}.json`));
    copyFileSync('tasks/search/rooms/room-11.json', join(tasksDir, 'search', 'rooms', 'room-11.json'));
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('walks to the goal view with the keys, answers, and the log regrades identically', async () => {
    const task = (await loadAnyTask(TASK, { tasksDir })) as SearchTask;
    const calls = playBaseline('oracle', task.spec, task.scene.collider, task.scene.visibility, new Map());
    const moves = calls.slice(0, -1).map((c) => SEARCH_KEYS.find((k) => k.tool === c.tool)!.key);
    expect(moves.length).toBe(task.spec.distance);
    const answer = (calls.at(-1)!.args as { answer: string }).answer;

    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    const frames: string[] = [];
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString('utf8'))));
    await page.goto(serve.url);
    await page.getByTestId(`play-${TASK}`).click();
    await page.getByTestId('play-start').click();
    await page.getByTestId('search-play').waitFor();
    await expect.poll(() => page.getByTestId('search-steps').textContent(), { timeout: 60_000 }).toContain('step 0/25');
    expect(await page.getByTestId('search-question').textContent()).toContain('What shape is the blue object inside the bin?');
    for (const [i, key] of moves.entries()) {
      await page.keyboard.press(key);
      await expect.poll(() => page.getByTestId('search-steps').textContent(), { timeout: 60_000 }).toContain(`step ${i + 1}/25`);
    }
    mkdirSync(RESULTS_DIR, { recursive: true });
    await page.getByTestId('search-view').screenshot({ path: join(RESULTS_DIR, 'search-goal.png') });
    await page.screenshot({ path: join(RESULTS_DIR, 'search-play.png') });
    const traj = await answerAndReadLog(page, home, TASK, answer);
    expect(errors).toEqual([]);
    expect(traj.end).toMatchObject({ reason: 'stop', correct: true, success: true, steps: moves.length + 1, collision: 0 });
    expect(regradeSearch(task, traj).problems).toEqual([]);
    // The answerable viewpoints and the hidden part never reach the page.
    const seen = frames.join('\n').replace(/data:image\/png;base64,[A-Za-z0-9+/=]+/g, '<png>');
    expect(seen).not.toMatch(/"answerable"|"goal"|"distance"/);
  }, 300_000);
});
