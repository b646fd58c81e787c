// The episode LabApi rows through dispatchCall (params and results validated by the method
// table) against the 32x32 test task with a CPU grader: start, step, budgets, errors, the end,
// reload, and that nothing hidden reaches a result.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatchCall, type Handlers } from '../../../src/main/services/dispatch';
import { createEpisodeHandlers } from '../../../src/main/services/episode';
import { EpisodeManager } from '../../../src/main/episodes/manager';
import { readTrajectory } from '../../../src/main/env/trajectory';
import type { EpisodeSnapshot, EpisodeStepResult } from '../../../src/shared/api/episode';
import { fakeServices } from './fixtures';
import { testTasks } from '../env/fixtures';

/** Strings that would betray held-out data if they appeared in any result. */
const HIDDEN_MARKERS = [/\bH[0-7]\b/, /hidden/i, /anchors/i, /score/i, /heldout/i, /fit\.json/i, /"lpips"/i];
/** The JSON a player gets, with image bytes blanked: base64 can spell "/H3+" or "score" by chance. */
const playerJson = (value: unknown): string => JSON.stringify(value).replace(/data:image\/[a-z]+;base64,[A-Za-z0-9+/=]+/g, 'data:image');

let handlers: Handlers;
let manager: EpisodeManager;
let home: string;

async function call<T>(method: string, params: unknown): Promise<T> {
  const out = await dispatchCall(handlers, method, params);
  if (!out.ok) throw new Error(out.message);
  return out.result as T;
}

beforeAll(async () => {
  const { tasksDir, grader } = await testTasks();
  home = mkdtempSync(join(tmpdir(), 'splatlab-home-'));
  const base = fakeServices();
  manager = new EpisodeManager({ tasksDir, home, grader: async () => grader, version: '0.0.0-test' });
  handlers = { ...base.handlers, ...createEpisodeHandlers({ episodes: manager }) };
});

describe('episode rows', () => {
  it('starts with the first observation, budgets, the start scene and reference cameras only', async () => {
    const s = await call<EpisodeSnapshot>('episode.start', { taskId: 'test__sculpt', protocol: 'free', player: 'p01' });
    expect(s.text).toContain('Reference views: V0');
    expect(s.text.endsWith('[0/300 Gaussians | calls left 40 | renders left 16]')).toBe(true);
    expect(s.image.startsWith('data:image/png;base64,iVBOR')).toBe(true);
    expect(s.budgets).toEqual({ gaussians: 0, maxGaussians: 300, callsLeft: 40, maxToolCalls: 40, rendersLeft: 16, maxRenders: 16 });
    expect(s.referenceViews.map((v) => v.name)).toEqual(['V0', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6', 'V7']);
    expect(s.referenceViews[6]).toMatchObject({ azimuth: 30, elevation: 65 });
    expect(s.referenceViews[0].camera.world_to_camera).toHaveLength(16);
    expect(s).toMatchObject({ protocol: 'free', player: 'p01', kind: 'sculpt', done: false, scene: [], history: [] });
    const json = playerJson(s);
    for (const marker of HIDDEN_MARKERS) expect(json).not.toMatch(marker);
  });

  it('charges calls and renders, keeps errors atomic, logs every call, and ends on submit', async () => {
    const s = await call<EpisodeSnapshot>('episode.start', { taskId: 'test__sculpt' });
    const step = (tool: string, args: unknown = {}) => call<EpisodeStepResult>('episode.step', { episodeId: s.episodeId, tool, args });
    const added = await step('add_gaussians', { gaussians: [{ pos: [0, 0, 0.2], color: '#ff0000', scale: 0.2 }, { pos: [0, 0, -0.3], color: [0, 0, 1], group: 'base' }] });
    expect(added).toMatchObject({ step: 1, error: false, done: false });
    expect(added.scene?.map((g) => g.id)).toEqual([0, 1]);
    expect(added.scene?.[1]).toMatchObject({ group: 'base', color: [0, 0, 1] });
    expect(added.budgets).toMatchObject({ gaussians: 2, callsLeft: 39, rendersLeft: 16 });

    const bad = await step('add_gaussians', { gaussians: [{ pos: [0, 0, 0], color: '#cacc cb' }] });
    expect(bad.error).toBe(true);
    expect(bad.text).toMatch(/^ERROR: nothing was added\. #0: unknown color '#cacc cb'/);
    expect(bad.budgets).toMatchObject({ gaussians: 2, callsLeft: 38 });
    expect(bad.scene).toHaveLength(2);

    const render = await step('render_views', { views: [0, 6] });
    expect(render.error).toBe(false);
    expect(render.text).toMatch(/V0: PSNR [\d.]+ dB, SSIM [\d.]+, silhouette IoU [\d.]+; V6:/);
    expect(render.image?.startsWith('data:image/png;base64,')).toBe(true);
    expect(render.budgets).toMatchObject({ callsLeft: 37, rendersLeft: 15 });

    const moved = await step('transform_group', { group: 'base', translate: [0, 0, 0.1] });
    expect(moved.scene?.[1].pos[2]).toBeCloseTo(-0.2, 6);
    const deleted = await step('delete_gaussians', { ids: [1] });
    expect(deleted).toMatchObject({ nextId: 2, scene: [{ id: 0 }] });

    const reloaded = await call<EpisodeSnapshot>('episode.get', { episodeId: s.episodeId });
    expect(reloaded.history.map((h) => h.tool)).toEqual(['add_gaussians', 'add_gaussians', 'render_views', 'transform_group', 'delete_gaussians']);
    expect(reloaded.nextId).toBe(2);
    expect(reloaded.history[1].error).toBe(true);
    expect(reloaded.history[2].image).toBe(render.image);
    expect(reloaded.budgets.callsLeft).toBe(35);

    const submitted = await step('submit');
    expect(submitted).toMatchObject({ done: true, error: false, step: 6 });
    expect(submitted.text).toContain('Submitted.');
    for (const marker of HIDDEN_MARKERS) expect(playerJson(submitted)).not.toMatch(marker);
    const after = await step('list_gaussians');
    expect(after).toMatchObject({ done: true, error: true, step: 6 });
    expect(after.budgets.callsLeft).toBe(34);

    const info = manager.info(s.episodeId);
    expect(info.logPath.startsWith(join(home, 'trajectories', 'test__sculpt-'))).toBe(true);
    const log = readTrajectory(info.logPath);
    expect(log.header).toMatchObject({ task: 'test__sculpt', protocol: 'matched', player: 'anonymous' });
    expect(log.steps.map((r) => r.tool)).toEqual(['reset', 'add_gaussians', 'add_gaussians', 'render_views', 'transform_group', 'delete_gaussians', 'submit']);
    for (const r of log.steps) {
      expect(r.ms).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(r.t))).toBe(false);
    }
    expect(log.end).toMatchObject({ reason: 'submit', calls_used: 6, renders_used: 1 });
    expect(manager.finalGrade(s.episodeId)?.score).toBeTypeOf('number');
  });

  it('refuses unknown tasks, unknown episodes and bad params with readable messages', async () => {
    await expect(call('episode.start', { taskId: 'nope__sculpt' })).rejects.toThrow(/unknown task 'nope__sculpt'.*known: test__oneshot/);
    await expect(call('episode.step', { episodeId: 'missing', tool: 'submit' })).rejects.toThrow(/no live episode 'missing'/);
    await expect(call('episode.start', { taskId: 'test__sculpt', protocol: 'agent' })).rejects.toThrow(/protocol/);
    await expect(call('episode.step', { episodeId: 'x', tool: 'submit', extra: 1 })).rejects.toThrow(/bad|Unrecognized/i);
  });

  it('sends unknown tools to the episode, which charges them as a model would be charged', async () => {
    const s = await call<EpisodeSnapshot>('episode.start', { taskId: 'test__oneshot' });
    const out = await call<EpisodeStepResult>('episode.step', { episodeId: s.episodeId, tool: 'fly', args: {} });
    expect(out.error).toBe(true);
    expect(out.text).toContain("ERROR: unknown tool 'fly'");
    expect(out.done).toBe(true);
    expect(out.text).toContain('submitted automatically');
  });

  it('starts from the init scene of a reassembly task and closes episodes', async () => {
    const s = await call<EpisodeSnapshot>('episode.start', { taskId: 'test__reassembly' });
    expect(s.scene?.length).toBeGreaterThan(0);
    expect(new Set((s.scene ?? []).map((g) => g.group)).size).toBeGreaterThan(1);
    await expect(call('episode.close', { episodeId: s.episodeId })).resolves.toEqual({ closed: true });
    await expect(call('episode.get', { episodeId: s.episodeId })).rejects.toThrow(/no live episode/);
  });

  it('resumes a log under the home folder with its history, and refuses paths outside it', async () => {
    const s = await call<EpisodeSnapshot>('episode.start', { taskId: 'test__sculpt', player: 'p02' });
    await call('episode.step', { episodeId: s.episodeId, tool: 'add_gaussians', args: { gaussians: [{ pos: [0.1, 0, 0], color: '#00ff00' }] } });
    const path = manager.info(s.episodeId).logPath;
    manager.close(s.episodeId);
    const r = await call<EpisodeSnapshot>('episode.resume', { log: path });
    expect(r).toMatchObject({ player: 'p02', protocol: 'matched', done: false });
    expect(r.scene).toHaveLength(1);
    expect(r.budgets.callsLeft).toBe(39);
    expect(r.history.map((h) => h.tool)).toEqual(['add_gaussians']);
    const next = await call<EpisodeStepResult>('episode.step', { episodeId: r.episodeId, tool: 'describe_groups' });
    expect(next.step).toBe(2);
    expect(readTrajectory(path).steps.map((x) => x.step)).toEqual([0, 1, 2]);
    await expect(call('episode.resume', { log: '/etc/passwd' })).rejects.toThrow(/only logs under/);
  });

  it('writes a study log where the caller asks', async () => {
    const logPath = join(home, 'study', 'p03', 'test__sculpt.jsonl');
    const s = await manager.start({ taskId: 'test__sculpt', logPath, protocol: 'matched', player: 'p03' });
    expect(manager.info(s.episodeId).logPath).toBe(logPath);
    expect(readdirSync(join(home, 'study', 'p03'))).toEqual(['test__sculpt.jsonl']);
    expect(readTrajectory(logPath).header).toMatchObject({ player: 'p03', protocol: 'matched' });
  });
});
