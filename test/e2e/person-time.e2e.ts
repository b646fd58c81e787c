// Issue 24, "Time as a person spends it": a scripted participant in a real Chromium with known
// think times (sleeps of the script), a 4 s pause and a kill -9 of the server at a known moment,
// then a submit. The lab's reported active, compute and think times (episodeTimes, as Results
// and the export read them) are each within 1 s of the script's own clock; the episode ends at
// the submit's finish, so the final grading after it is in no time; the page's heartbeats
// carried the send and paint times of its calls.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, startServe, startTestLab, type ServeProcess } from './harness';
import { readTrajectory } from '../../src/main/env/trajectory';
import { episodeTimes } from '../../src/shared/env/person-time';
import { episodeResult } from '../../src/main/study/results';

const skip = browserMissing();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The script's eyes: a MutationObserver in the page notes (on the machine's one wall clock) when
 * the budget text changes and when the connection banner comes and goes, so the script's clock
 * reads what was on screen, not when a poll from this process happened to look.
 */
async function watchScreen(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: { what: string; at: number }[] = [];
    let last = '';
    let lost = false;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="budget-calls"]')?.textContent ?? '';
      if (text !== last) {
        last = text;
        seen.push({ what: text, at: Date.now() });
      }
      const banner = document.querySelector('[data-testid="connection-lost"]') !== null;
      if (banner !== lost) {
        lost = banner;
        seen.push({ what: banner ? 'lost' : 'back', at: Date.now() });
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
    Object.assign(globalThis, { scriptSeen: seen });
  });
}

/** When the screen first showed `what` (budget text containing it, or 'lost'/'back'). */
async function seenAt(page: Page, what: string): Promise<number> {
  const find = () => page.evaluate((w) => ((globalThis as unknown as { scriptSeen: { what: string; at: number }[] }).scriptSeen.find((s) => s.what.includes(w))?.at ?? null), what);
  await expect.poll(find, { timeout: 60_000 }).not.toBeNull();
  return (await find()) as number;
}

/** One call as the script sees it: from its click to the budget on screen showing it was charged. */
async function timedCall(page: Page, click: () => Promise<void>, calls: string): Promise<number> {
  const t0 = Date.now();
  await click();
  return (await seenAt(page, calls)) - t0;
}

describe.skipIf(skip)('time as a person spends it (browser mode)', () => {
  let serve: ServeProcess | undefined;
  let browser: Browser;
  let home: string;
  let tasksDir: string;

  beforeAll(async () => {
    ({ serve, home, tasksDir } = await startTestLab('splatlab-person-time-e2e-'));
    browser = await launchBrowser({ webgpu: true });
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('reports active, compute and think time within 1 s of the script, with a pause, a kill -9 and no grading time', async () => {
    const first = serve;
    if (!first) throw new Error('no server');
    const port = new URL(first.url).port;
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.goto(first.url);
    await page.getByTestId('play-test__sculpt').click();
    await watchScreen(page);
    const waits: number[] = [];
    // The participant's time starts when the task is on screen (loading it is the lab's).
    await page.getByTestId('play-start').click();
    const startedAt = await seenAt(page, 'calls left 40/40');

    await sleep(3_000); // think
    await page.getByTestId('add-sphere').click();
    waits.push(await timedCall(page, () => page.getByTestId('commit').click(), 'calls left 39/40'));
    await sleep(2_000); // think

    const pausedAt = Date.now();
    await page.getByTestId('play-pause').click();
    await page.getByTestId('play-paused').waitFor();
    await sleep(4_000);
    // Both ends of the pause are the script's clicks (the lab stamps each on arrival).
    const resumedAt = Date.now();
    await page.getByTestId('play-resume').click();
    await page.getByTestId('play-paused').waitFor({ state: 'detached' });

    await sleep(2_000); // think, then the lab dies
    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    serve = undefined;
    await page.getByTestId('connection-lost').waitFor({ timeout: 60_000 });
    await sleep(2_000);
    serve = await startServe(['--device', 'cpu', '--port', port], { SPLATLAB_TASKS_DIR: tasksDir, SPLATLAB_HOME: home, SPLATLAB_LPIPS_DIR: join(dirname(home), 'no-lpips') });
    await page.getByTestId('connection-lost').waitFor({ state: 'detached', timeout: 60_000 });
    const backAt = await seenAt(page, 'back');

    await sleep(2_000); // think
    await page.getByTestId('add-sphere').click();
    waits.push(await timedCall(page, () => page.getByTestId('commit').click(), 'calls left 38/40'));
    await sleep(1_500); // think
    // The submit stops the heartbeat: wait until a logged beat carried the last call's times (a
    // loaded machine can delay the page's twice-a-second beat past any fixed sleep).
    const dir = join(home, 'trajectories');
    const [file] = readdirSync(dir).filter((f) => f.startsWith('test__sculpt-') && f.endsWith('.jsonl'));
    const logPath = join(dir, file);
    const beatCarried = (step: number): boolean => readTrajectory(logPath).times.some((r) => r.event === 'heartbeat' && (r.calls ?? []).some((c) => c.step === step));
    await expect.poll(() => beatCarried(2), { timeout: 60_000 }).toBe(true);
    await page.getByTestId('tool-submit').click();
    await page.getByTestId('submit-yes').waitFor();
    const submitAt = Date.now(); // the submitting action
    await page.getByTestId('submit-yes').click();
    await page.getByTestId('play-submitted').waitFor({ timeout: 60_000 });

    await expect.poll(() => readTrajectory(logPath).end !== null, { timeout: 60_000 }).toBe(true);
    const traj = readTrajectory(logPath);
    expect(traj.badLines).toEqual([]);
    const t = episodeTimes({ started: traj.header?.started ?? '', steps: traj.steps, times: traj.times, end: traj.end });

    // The script's own clock: start to submit, less the pause and the time the lab was gone.
    const scriptActive = submitAt - startedAt - (resumedAt - pausedAt) - (backAt - killedAt);
    const scriptCompute = waits.reduce((a, b) => a + b, 0);
    const scriptThink = scriptActive - scriptCompute;
    console.log(`person-time e2e: script active ${scriptActive} ms, compute ${scriptCompute} ms, think ${scriptThink} ms; lab active ${t.activeMs}, compute ${t.computeMs}, transport ${t.transportMs}, think ${t.thinkMs}, down ${t.clock.downMs} (script ${backAt - killedAt}), grading after submit ${Date.parse(traj.end?.t ?? '') - (t.endedAt ?? 0)} ms`);
    const seg = t.clock.segments.map((x) => `${x.phase} ${x.from - startedAt}..${x.to - startedAt}`).join(', ');
    console.log(`script: paused ${pausedAt - startedAt}..${resumedAt - startedAt}, killed ${killedAt - startedAt}, back ${backAt - startedAt}, submit ${submitAt - startedAt}; lab: ${seg}`);
    const submit = traj.steps.at(-1);
    expect(submit?.tool).toBe('submit');
    // The episode ended at the submit's finish; the end record (after the final grade) is later.
    expect(t.endedAt).toBe(Date.parse(submit?.t ?? '') + (submit?.ms ?? 0));
    expect(Date.parse(traj.end?.t ?? '')).toBeGreaterThanOrEqual(t.endedAt ?? Infinity);
    // The script's numbers against the lab's (the submit's own round trip is in neither wait).
    expect(Math.abs(t.activeMs - scriptActive)).toBeLessThan(1_000);
    expect(Math.abs(t.computeMs + t.transportMs - scriptCompute)).toBeLessThan(1_000);
    expect(Math.abs(t.thinkMs - scriptThink)).toBeLessThan(1_000);
    expect(t.clock.pausedMs).toBeGreaterThan(3_500);
    expect(t.clock.interruptions.map((i) => i.kind)).toEqual(['restart']);
    // The page reported when it sent and painted its calls (through its heartbeats).
    expect(t.calls.filter((c) => c.clientShown !== null).map((c) => c.tool)).toEqual(['reset', 'add_gaussians', 'add_gaussians']);
    // Results reads the same numbers.
    const row = episodeResult(traj, 'x.jsonl', { source: 'human', kind: 'human', participant: 'P01', practice: false }, 'test__sculpt');
    expect(row.seconds).toBeCloseTo(t.activeMs / 1000, 6);
    expect(row.thinkSeconds).toBeCloseTo(t.thinkMs / 1000, 6);
    expect(row.computeSeconds).toBeCloseTo(t.computeMs / 1000, 6);
  });
});
