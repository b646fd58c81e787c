// Issue 24 item 5: the process log of a participant's episode, recorded by the page (staged edits,
// undo, selection, camera poses, focus) and sent with its heartbeats, is written beside the
// trajectory and replays on the Results timeline between the calls (scrubbing moves the replay,
// and the replay's view follows the participant's recorded camera).
// Screenshot: test-results/process-timeline.png.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startTestLab, type ServeProcess } from './harness';
import { labCall, studyOverApi } from './study-flow';
import { parseProcessLog } from '../../src/shared/env/process-log';

const skip = browserMissing();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(skip)('the process log (browser mode)', () => {
  let serve: ServeProcess;
  let browser: Browser;
  let home: string;

  beforeAll(async () => {
    ({ serve, home } = await startTestLab('splatlab-process-e2e-'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('records what the participant did between calls and replays it on the timeline', async () => {
    const base = new URL(serve.url);
    const desk = `ws://${base.host}/lab?token=${base.searchParams.get('token')}`;
    const link = { token: await studyOverApi(desk, { name: 'Process', studyId: 'process', tasks: ['test__sculpt'], practiceTask: 'test__oneshot', participants: 1, pin: '9753' }) };

    const page = await browser.newPage({ viewport: { width: 1400, height: 880 } });
    await page.goto(`${base.origin}/?token=${encodeURIComponent(link.token)}`);
    await page.getByTestId('consent-agree').click();
    await page.getByTestId('instructions-continue').click();
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('commit').click();
    await page.getByTestId('session-continue').click();
    await page.getByTestId('session-task-banner').filter({ hasText: 'Task 1' }).waitFor();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 40/40');
    // Between calls: orbit the camera, stage two spheres, undo one, then commit and submit.
    const canvas = page.getByTestId('viewport-canvas');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('no viewport');
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.8);
    await page.mouse.down();
    for (let i = 0; i < 12; i++) {
      await page.mouse.move(box.x + box.width * (0.8 - i * 0.03), box.y + box.height * 0.8, { steps: 2 });
      await sleep(60);
    }
    await page.mouse.up();
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('undo').click();
    // The page sends its events with its heartbeats (twice a second) and the submit stops them:
    // wait until the lab has written what this test looks for (a fixed sleep is not enough on a
    // loaded machine), before the commit and again before the submit.
    const processLog = join(home, 'studies', 'process', 'trajectories', 'P01', 'test__sculpt.process.ndjson');
    const logged = (): Set<string> => (existsSync(processLog) ? new Set(parseProcessLog(readFileSync(processLog, 'utf8')).map((e) => e.e)) : new Set());
    await expect.poll(() => ['camera', 'stage.add', 'undo'].every((k) => logged().has(k)), { timeout: 60_000 }).toBe(true);
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    await expect.poll(() => ['camera', 'stage.add', 'undo', 'select'].every((k) => logged().has(k)), { timeout: 60_000 }).toBe(true);
    await page.getByTestId('tool-submit').click();
    await page.getByTestId('submit-yes').click();
    await page.getByTestId('session-continue').waitFor({ timeout: 60_000 });

    const events = parseProcessLog(readFileSync(processLog, 'utf8'));
    const kinds = new Set(events.map((e) => e.e));
    for (const k of ['camera', 'stage.add', 'undo', 'select'] as const) expect(kinds.has(k), k).toBe(true);
    await labCall(desk, 'study.session.end', {});

    const exp = await browser.newPage({ viewport: { width: 1400, height: 1400 } });
    await exp.goto(serve.url);
    await exp.getByTestId('nav-results').click();
    await exp.getByTestId('replay-P01-test__sculpt').click();
    await exp.getByTestId('process-timeline').waitFor();
    const scrub = exp.getByTestId('process-scrub');
    // The view follows the camera: at the first and the last recorded pose the scene is rendered
    // from that pose, and the two differ (the participant orbited in between).
    const view = (await labCall(desk, 'study.trajectory', { studyId: 'process', log: 'trajectories/P01/test__sculpt.jsonl' })) as { steps: { t: string }[]; process: { t: number; e: string }[] };
    const from = Math.min(Date.parse(view.steps[0].t), view.process[0].t);
    const to = Math.max(Date.parse(view.steps.at(-1)?.t ?? ''), view.process.at(-1)?.t ?? 0);
    const cams = view.process.filter((e) => e.e === 'camera');
    const at = (t: number): string => String(Math.min(1000, Math.ceil(((t - from) / (to - from)) * 1000)));
    const poseImage = exp.getByTestId('replay-pose-image');
    await scrub.fill(at(cams[0].t));
    await expect.poll(() => exp.getByTestId('replay-pose-view').textContent()).toContain('camera from the process log');
    const first = await poseImage.getAttribute('src');
    await scrub.fill(at(cams.at(-1)?.t ?? to));
    await expect.poll(() => poseImage.getAttribute('src')).not.toBe(first);
    await scrub.fill('600');
    await expect.poll(() => exp.getByTestId('replay-step').textContent()).toMatch(/call \d/);
    await scrub.fill(at(cams.at(-1)?.t ?? to));
    await expect.poll(() => poseImage.getAttribute('src')).not.toBe(first);
    await exp.getByTestId('process-timeline').scrollIntoViewIfNeeded();
    await exp.screenshot({ path: join(RESULTS_DIR, 'process-timeline.png'), fullPage: true });
    expect(await exp.locator('[data-testid="process-timeline"] line').count()).toBeGreaterThan(events.length);
  });
});
