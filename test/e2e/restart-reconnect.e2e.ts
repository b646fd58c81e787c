// Issue 11, "Honest time": the lab server is killed (kill -9 of the real `splatlab serve` child)
// in the middle of a task with a staged, uncommitted edit; the page shows "connection lost,
// reconnecting" (a commit attempted meanwhile fails at once, never "Committing..." forever);
// the server is started again on the same home and port; the SAME page (never reloaded)
// reconnects by itself, finds its episode again with the staged edit intact and commits it; the
// log records a pause, and the downtime as a `restart` interruption that the clock leaves out of
// active time. Screenshot: test-results/restart-connection-lost.png.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser, RESULTS_DIR, startServe, startTestLab, type ServeProcess } from './harness';
import { setField } from './viewport-helpers';
import { readTrajectory } from '../../src/main/env/trajectory';
import { episodeClock } from '../../src/shared/env/time';

const skip = browserMissing();

describe.skipIf(skip)('a server restart mid-task (browser mode)', () => {
  let serve: ServeProcess | undefined;
  let browser: Browser;
  let home: string;
  let tasksDir: string;

  beforeAll(async () => {
    ({ serve, home, tasksDir } = await startTestLab('splatlab-restart-e2e-'));
    browser = await launchBrowser({ webgpu: true });
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('reconnects the same page after kill -9, keeps the staged edit, and counts the downtime as an interruption', async () => {
    const first = serve;
    if (!first) throw new Error('no server');
    const port = new URL(first.url).port;
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(first.url);
    await page.getByTestId('play-test__sculpt').click();
    await page.getByTestId('play-start').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 40/40');

    // A pause: the scene is veiled, calls are off, and the log gets pause/resume.
    await page.getByTestId('play-pause').click();
    await page.getByTestId('play-paused').waitFor();
    await page.screenshot({ path: join(RESULTS_DIR, 'restart-paused.png') });
    await page.getByTestId('play-resume').click();
    await page.getByTestId('play-paused').waitFor({ state: 'detached' });

    // One committed Gaussian, then a second one staged and moved, not committed.
    await page.getByTestId('add-sphere').click();
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    await page.getByTestId('add-sphere').click();
    await setField(page, 'insp-pos-0', 0.375);
    await expect.poll(() => page.locator('[data-testid="staged-ops"] li').count()).toBe(2);
    // A marker in the page's memory: it survives only if the page is never reloaded.
    await page.evaluate(() => Object.assign(globalThis, { splatlabSamePage: 'yes' }));

    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    serve = undefined;
    await page.getByTestId('connection-lost').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('connection-lost').textContent()).toContain('Connection to the lab lost - reconnecting...');
    // A commit while the server is gone fails at once with a clear line; nothing stays busy.
    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('play-error').textContent()).toContain('connection to the lab server is lost');
    await expect.poll(() => page.getByTestId('working').count()).toBe(0);
    await page.screenshot({ path: join(RESULTS_DIR, 'restart-connection-lost.png') });

    // The lab comes back on the same home, port and (home) token.
    const root = dirname(home);
    serve = await startServe(['--device', 'cpu', '--port', port], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(root, 'no-lpips') });
    const back = Date.now();
    expect(new URL(serve.url).searchParams.get('token')).toBe(new URL(first.url).searchParams.get('token'));
    await page.getByTestId('connection-lost').waitFor({ state: 'detached', timeout: 60_000 });
    // The page re-attached: main continued the episode from its log (a restart record), and the
    // page has taken the snapshot (nothing busy any more).
    const dir = join(home, 'trajectories');
    const [file] = readdirSync(dir).filter((f) => f.startsWith('test__sculpt-') && f.endsWith('.jsonl'));
    const logPath = join(dir, file);
    await expect.poll(() => readTrajectory(logPath).times.some((t) => t.event === 'restart'), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => page.getByTestId('working').count()).toBe(0);
    expect(await page.getByTestId('budget-calls').textContent()).toContain('calls left 39/40');
    expect(await page.evaluate(() => (globalThis as unknown as { splatlabSamePage?: string }).splatlabSamePage)).toBe('yes');
    expect(await page.locator('[data-testid="staged-ops"] li').count()).toBe(2);
    expect(Number(await page.getByTestId('insp-pos-0').inputValue())).toBeCloseTo(0.375, 6);
    await page.screenshot({ path: join(RESULTS_DIR, 'restart-reconnected.png') });

    await page.getByTestId('commit').click();
    await expect.poll(() => page.getByTestId('budget-calls').textContent(), { timeout: 60_000 }).toContain('calls left 38/40');
    expect(await page.locator('[data-testid="staged-ops"] li').count()).toBe(0);
    expect(errors).toEqual([]);

    // The log: one writer throughout, the staged Gaussian committed where it was put, the pause
    // and the restart recorded, and the downtime outside active time.
    const traj = readTrajectory(logPath);
    expect(traj.badLines).toEqual([]);
    expect(traj.steps.map((s) => s.step)).toEqual([0, 1, 2]);
    const last = traj.steps[2].state ?? [];
    expect(last).toHaveLength(2);
    expect(last.some((g) => Math.abs(g.p[0] - 0.375) < 1e-6)).toBe(true);
    // Heartbeats (the page's call times) come between; the pause and the restart are what is checked.
    const events = traj.times.filter((t) => t.event !== 'heartbeat').map((t) => t.event);
    expect(events.slice(0, 2)).toEqual(['pause', 'resume']);
    expect(events).toContain('restart');
    const clock = episodeClock({ started: traj.header?.started ?? '', steps: traj.steps, times: traj.times, now: Date.now() });
    const restart = clock.interruptions.find((i) => i.kind === 'restart');
    expect(restart).toBeDefined();
    // Down from the last record before the kill to the resume after the restart: at least the outage.
    expect(restart?.from).toBeLessThanOrEqual(killedAt);
    const resumedAt = restart?.to ?? 0;
    expect(resumedAt).toBeGreaterThanOrEqual(back - 5_000);
    expect(clock.downMs).toBeGreaterThanOrEqual(resumedAt - killedAt);
    expect(clock.activeMs + clock.pausedMs + clock.downMs).toBe(clock.wallMs);
    expect(clock.activeMs).toBeLessThanOrEqual(clock.wallMs - (resumedAt - killedAt));
  });
});
