// Honest time in the episode manager: pause/resume, page marks, a closed connection, a restart
// (a second manager on the same home finds the episode by its id) and the per-task time limit
// are time records in the log, and the clock built from them leaves paused and down time out.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EpisodeManager, EpisodeNotFound } from '../../../src/main/episodes/manager';
import { parseTrajectory, readTrajectory } from '../../../src/main/env/trajectory';
import { episodeResult } from '../../../src/main/study/results';
import { Connection } from '../../../src/main/services/connection';
import { episodeClock } from '../../../src/shared/env/time';
import type { Grader } from '../../../src/main/grader/grader';
import { testTasks } from '../env/fixtures';

let tasksDir: string;
let grader: Grader;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const add = { gaussians: [{ pos: [0, 0, 0], color: '#ff0000', scale: 0.2 }] };

function manager(home: string): EpisodeManager {
  return new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
}


beforeAll(async () => {
  ({ tasksDir, grader } = await testTasks());
});

describe('episode time records', () => {
  it('records pause, resume and page marks, refuses calls while paused, and leaves paused time out', async () => {
    const m = manager(mkdtempSync(join(tmpdir(), 'splatlab-time-')));
    const s = await m.start({ taskId: 'test__sculpt', player: 'p01' });
    const path = m.info(s.episodeId).logPath;
    expect(readTrajectory(path).header?.episode).toBe(s.episodeId);
    expect(s.time).toMatchObject({ paused: false, limitMs: null, pausedMs: 0, downMs: 0 });
    expect((await m.mark(s.episodeId, 'pause')).paused).toBe(true);
    await m.mark(s.episodeId, 'pause'); // a repeat writes nothing
    await expect(m.step(s.episodeId, { tool: 'add_gaussians', args: add })).rejects.toThrow(/paused: resume it/);
    await sleep(70); // past the bound below: timers use a monotonic clock, records the wall clock
    const after = await m.mark(s.episodeId, 'resume');
    expect(after.paused).toBe(false);
    expect(after.pausedMs).toBeGreaterThanOrEqual(60);
    await m.mark(s.episodeId, 'hidden');
    await m.mark(s.episodeId, 'visible');
    await m.mark(s.episodeId, 'reload');
    const r = await m.step(s.episodeId, { tool: 'add_gaussians', args: add });
    expect(r.step).toBe(1); // the refused call was never charged
    m.close(s.episodeId);
    await m.idle();
    const traj = readTrajectory(path);
    expect(traj.times.map((t) => t.event)).toEqual(['pause', 'resume', 'hidden', 'visible', 'reload']);
    expect(traj.badLines).toEqual([]);
    const c = episodeClock({ started: traj.header?.started ?? '', steps: traj.steps, times: traj.times });
    expect(c.pausedMs).toBeGreaterThanOrEqual(60);
    expect(c.activeMs + c.pausedMs).toBe(c.wallMs);
  });

  it('marks a disconnect when the last connection holding the episode closes, and a reconnect when a page calls again', async () => {
    const m = manager(mkdtempSync(join(tmpdir(), 'splatlab-time-')));
    const s = await m.start({ taskId: 'test__sculpt' });
    const path = m.info(s.episodeId).logPath;
    const tab = new Connection();
    m.attach(s.episodeId, tab);
    tab.close();
    // Timers run on a monotonic clock and records on the wall clock: sleep past the bound asserted.
    await sleep(50);
    const again = new Connection();
    m.attach(s.episodeId, again);
    const t = await m.mark(s.episodeId, 'reload');
    expect(t.downMs).toBeGreaterThanOrEqual(40);
    m.close(s.episodeId);
    await m.idle();
    const traj = readTrajectory(path);
    expect(traj.times.map((x) => x.event)).toEqual(['disconnect', 'reconnect', 'reload']);
  });

  it('after a restart, the same id continues the episode from its log, the gap counted as down time', async () => {
    const home = mkdtempSync(join(tmpdir(), 'splatlab-time-'));
    const first = manager(home);
    const s = await first.start({ taskId: 'test__sculpt' });
    await first.step(s.episodeId, { tool: 'add_gaussians', args: add });
    // The lab goes away (its ids stay recorded under the home), and a new one starts later.
    first.closeAll();
    await first.idle();
    await sleep(90); // past the bound below (monotonic timers, wall-clock records)
    const second = manager(home);
    await expect(second.reattach('0123456789ab')).rejects.toThrow(EpisodeNotFound);
    await expect(second.reattach('../../etc')).rejects.toThrow(EpisodeNotFound);
    const back = await second.reattach(s.episodeId);
    expect(back.episodeId).toBe(s.episodeId);
    expect(back.history.map((h) => h.tool)).toEqual(['add_gaussians']);
    expect(back.time?.downMs).toBeGreaterThanOrEqual(80);
    const traj = readTrajectory(second.info(s.episodeId).logPath);
    const restart = traj.times.at(-1);
    expect(restart).toMatchObject({ event: 'restart', since: new Date(Date.parse(traj.steps[1].t) + traj.steps[1].ms).toISOString() });
    const c = episodeClock({ started: traj.header?.started ?? '', steps: traj.steps, times: traj.times });
    expect(c.interruptions).toHaveLength(1);
    expect(c.downMs).toBe(Date.parse(restart?.t ?? '') - Date.parse(restart?.since ?? ''));
    // A page that left the episode (close) drops its id: no reattach then.
    second.close(s.episodeId);
    await second.idle();
    await expect(manager(home).reattach(s.episodeId)).rejects.toThrow(EpisodeNotFound);
    expect(() => readFileSync(join(home, '.episodes', `${s.episodeId}.json`))).toThrow();
  });

  it('submits the scene as it stands on the first call after the active-time limit', async () => {
    const m = manager(mkdtempSync(join(tmpdir(), 'splatlab-time-')));
    const s = await m.start({ taskId: 'test__sculpt', timeLimitS: 0.05 });
    const path = m.info(s.episodeId).logPath;
    expect(s.time?.limitMs).toBe(50);
    await m.step(s.episodeId, { tool: 'add_gaussians', args: add });
    await sleep(70);
    const r = await m.step(s.episodeId, { tool: 'add_gaussians', args: add });
    expect(r.done).toBe(true);
    expect(r.budgets.gaussians).toBeLessThanOrEqual(1);
    m.close(s.episodeId);
    await m.idle();
    const traj = readTrajectory(path);
    expect(traj.header?.time_limit_s).toBe(0.05);
    expect(traj.times.map((t) => t.event)).toEqual(['time_limit']);
    expect(traj.steps.at(-1)?.tool).toBe('submit');
    expect(traj.end?.reason).toBe('submit');
  });

  it('reports study durations from the clock: paused and down time are out of seconds, an old log is all active', () => {
    const line = (v: unknown) => `${JSON.stringify(v)}\n`;
    const t = (s: number) => new Date(Date.parse('2026-01-01T10:00:00Z') + s * 1000).toISOString();
    const head = line({ type: 'header', task: 'test__sculpt', protocol: 'matched', player: 'P01', versions: {}, started: t(0) });
    const steps = line({ step: 0, tool: 'reset', args: {}, text: '', t: t(0), ms: 0 }) + line({ step: 1, tool: 'submit', args: {}, text: '', t: t(100), ms: 0, done: true });
    const end = line({ type: 'end', reason: 'submit', score: 10, reward: 0.1, training_reward: 0.4, psnr: 1, ssim: 0.1, iou: 0.1, lpips: null, lpips_missing: true, calls_used: 1, renders_used: 0, gaussians: 0, t: t(100) });
    const times = line({ type: 'time', event: 'pause', t: t(10) }) + line({ type: 'time', event: 'resume', t: t(40) }) + line({ type: 'time', event: 'restart', t: t(80), since: t(60) });
    const who = { source: 'human', kind: 'human' as const, participant: 'P01', practice: false };
    const withTimes = episodeResult(parseTrajectory(head + steps.split('\n')[0] + '\n' + times + steps.split('\n')[1] + '\n' + end), 'a.jsonl', who, 'test__sculpt');
    expect(withTimes).toMatchObject({ seconds: 50, pausedSeconds: 30, downSeconds: 20, interruptions: 1 });
    const old = episodeResult(parseTrajectory(head + steps + end), 'b.jsonl', who, 'test__sculpt');
    expect(old).toMatchObject({ seconds: 100, pausedSeconds: 0, downSeconds: 0, interruptions: 0 });
  });

  it('reads time records into `times`, a malformed one as a bad line, and an old log with none', () => {
    const head = `${JSON.stringify({ type: 'header', task: 't', protocol: 'matched', player: 'p', versions: {}, started: '2026-01-01T10:00:00.000Z' })}\n`;
    const ok = `${JSON.stringify({ type: 'time', event: 'pause', t: '2026-01-01T10:00:05.000Z', step: 0 })}\n`;
    const bad = `${JSON.stringify({ type: 'time', event: 'nap', t: '2026-01-01T10:00:06.000Z' })}\n`;
    const traj = parseTrajectory(head + ok + bad);
    expect(traj.times).toEqual([{ type: 'time', event: 'pause', t: '2026-01-01T10:00:05.000Z', step: 0 }]);
    expect(traj.badLines).toEqual([3]);
    expect(parseTrajectory(head).times).toEqual([]);
  });
});
