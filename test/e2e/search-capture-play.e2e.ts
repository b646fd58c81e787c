// Issue 35: a search room made from a splat file, played by keyboard in Chromium against
// `splatlab serve`. The test writes a procedural room as a 3DGS .ply with degree-1 spherical
// harmonics (an independent writer, PlayCanvas splat-transform) and a capture document without a
// mesh, so collisions come from the splats' density (the voxel grid); a task in it (answerable
// view stored, as an annotation would) is played: a move into the wall is blocked and said so,
// then the keys walk the A* path to the view of the cube, the answer is typed and Enter stops.
// The log holds the collision and the correct answer. Screenshots:
// test-results/search-capture-blocked.png, test-results/search-capture-goal.png.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, type ServeProcess } from './harness';
import { writeGeneratedCapture } from '../main/kinds/search/capture-fixture';
import { answerAndReadLog } from './search-flow';
import { loadCapture } from '../../src/main/kinds/search/capture-scene';
import { pathTo } from '../../src/shared/kinds/search/astar';
import { SearchTaskSpecSchema } from '../../src/shared/kinds/search/kind';
import type { Pose } from '../../src/shared/kinds/search/pose';
import { motionWorld } from '../../src/shared/kinds/search/world';
import { SEARCH_KEYS } from '../../src/renderer/kinds/search/keys';

const skip = browserMissing();
const TASK = 'search__gen-capture-voxels__cube-colour';
/** Facing the west wall 0.35 m from it: one step forward touches it. */
const START: Pose = { x: 0.35, y: 1.5, z: 1.2, yaw: 180, pitch: 0 };
/** Four steps back, turned towards the cube on the table and looking down at it. */
const GOAL: Pose = { x: 1.35, y: 1.5, z: 1.2, yaw: 30, pitch: -30 };

describe.skipIf(skip)('a search room from a splat file, played by keyboard (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;
  let moves: string[];

  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-search-capture-e2e-'));
    const tasksDir = join(root, 'tasks');
    home = join(root, 'home');
    const gen = await writeGeneratedCapture(tasksDir, { sh: true });
    const loaded = await loadCapture(tasksDir, gen.voxelDoc);
    expect(loaded.colliderKind).toMatch(/^voxels/);
    const path = pathTo(motionWorld(loaded.collider, 0.1), START, GOAL, { maxDepth: 24 });
    if (!path) throw new Error('no path from the start to the goal in the generated capture');
    moves = path.map((tool) => SEARCH_KEYS.find((k) => k.tool === tool)!.key);
    const spec = SearchTaskSpecSchema.parse({
      task_id: TASK, kind: 'search', room: gen.voxelDoc,
      question: { id: 'cube-colour', family: 'color', text: 'What colour is the cube on the table?', answer: { type: 'text', correct: 'red', synonyms: [] }, needs: ['cube-1'] },
      start: START, goal: GOAL, answerable: [GOAL], distance: path.length, tolerance: { position: 0.125, angle: 15 },
    });
    writeFileSync(join(tasksDir, `${TASK}.json`), `${JSON.stringify(spec, null, 1)}\n`);
    serve = await startServe(['--device', 'cpu'], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('blocks a move into the wall, walks to the cube and answers', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(serve.url);
    await page.getByTestId(`play-${TASK}`).click();
    await page.getByTestId('play-start').click();
    await page.getByTestId('search-play').waitFor();
    await expect.poll(() => page.getByTestId('search-steps').textContent(), { timeout: 60_000 }).toContain('step 0/25');
    const forward = SEARCH_KEYS.find((k) => k.tool === 'move_forward')!.key;
    await page.keyboard.press(forward);
    await page.getByTestId('search-collision').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(RESULTS_DIR, 'search-capture-blocked.png') });
    for (const [i, key] of moves.entries()) {
      await page.keyboard.press(key);
      await expect.poll(() => page.getByTestId('search-steps').textContent(), { timeout: 60_000 }).toContain(`step ${i + 2}/25`);
    }
    await page.screenshot({ path: join(RESULTS_DIR, 'search-capture-goal.png') });
    const traj = await answerAndReadLog(page, home, TASK, 'red');
    expect(errors).toEqual([]);
    expect(traj.end).toMatchObject({ reason: 'stop', correct: true, success: true, steps: moves.length + 2, collisions: 1, collision: 1 });
  }, 300_000);
});
