// The episode store over a fake LabApi: a commit is exactly the planned call(s), charged budgets
// come from the result, and a refused call keeps the staged change for the person to fix.
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { LabApi } from '../../../src/shared/api/lab';
import type { EpisodeSnapshot, EpisodeStepResult, PublicGaussian } from '../../../src/shared/api/episode';
import { useEpisodeStore } from '../../../src/renderer/stores/episode';
import { useStagingStore } from '../../../src/renderer/stores/staging';
import { LabCallError } from '../../../src/shared/api/messages';

const budgets = (calls: number, gaussians: number) => ({ gaussians, maxGaussians: 300, callsLeft: calls, maxToolCalls: 40, rendersLeft: 16, maxRenders: 16 });

const snapshot: EpisodeSnapshot = {
  episodeId: 'e1', taskId: 't', kind: 'sculpt', protocol: 'matched', player: 'p', text: 'first\n[0/300 Gaussians | calls left 40 | renders left 16]',
  image: 'data:image/png;base64,AA==', budgets: budgets(40, 0), scene: [], nextId: 0, referenceViews: [], done: false, history: [], options: { outline_overlay: true },
};

type Reply = Omit<EpisodeStepResult, 'info'>;

/** The StepInfo main would attach to a reply (the store reads only the reply's own fields here). */
function withInfo(r: Reply): EpisodeStepResult {
  const b = r.budgets;
  const info = { tool: '', ok: !r.error, charged: true, step: r.step, changed: !r.error, ids: [], done: r.done, endReason: null, ending: null, outcome: { status: r.error ? 'refused' : 'ok', code: r.error ? 'invalid_args' : 'ok' } as const, nextId: r.nextId, budgets: { gaussians: b.gaussians, maxGaussians: b.maxGaussians, callsLeft: b.callsLeft, rendersLeft: b.rendersLeft } };
  return { ...r, info };
}

function fakeApi(replies: ((args: unknown) => Reply)[]): LabApi & { sent: { method: string; params: unknown }[] } {
  const sent: { method: string; params: unknown }[] = [];
  return {
    sent,
    call: (async (method: string, params: unknown) => {
      // The page's heartbeat (every second while an episode is live) is not part of these scripts.
      if (method === 'episode.heartbeat') return { activeMs: 0, pausedMs: 0, downMs: 0, paused: false, limitMs: null };
      sent.push({ method, params });
      if (method === 'episode.start') return snapshot;
      const reply = replies.shift();
      if (!reply) throw new Error('no reply left');
      return withInfo(reply((params as { args: unknown }).args));
    }) as LabApi['call'],
    on: () => () => undefined,
  };
}

const sphere = (id: number, x: number): PublicGaussian => ({ id, pos: [x, 0, 0], scale: [0.08, 0.08, 0.08], quat: [1, 0, 0, 0], color: [1, 0, 0], opacity: 1 });

describe('episode store', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('commits staged adds as one add_gaussians and takes the scene and budgets from the result', async () => {
    const api = fakeApi([() => ({ step: 1, text: 'Added 2 Gaussians (ids 0-1).\n[2/300 Gaussians | calls left 39 | renders left 16]', error: false, done: false, budgets: budgets(39, 2), scene: [sphere(0, 0.1), sphere(1, 0.2)], nextId: 2 })]);
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    await episode.start(api, 't', 'matched');
    staging.addPreset('sphere', [0.1, 0, 0], [1, 0, 0], null);
    staging.addPreset('sphere', [0.2, 0, 0], [1, 0, 0], null);
    expect(await episode.commit(api)).toEqual({ sent: 1, error: false });
    const steps = api.sent.filter((s) => s.method === 'episode.step');
    expect(steps).toHaveLength(1);
    expect(steps[0].params).toMatchObject({ episodeId: 'e1', tool: 'add_gaussians', args: { gaussians: [{ pos: [0.1, 0, 0] }, { pos: [0.2, 0, 0] }] } });
    expect(episode.budgets?.callsLeft).toBe(39);
    expect(staging.dirty).toBe(false);
    expect(staging.base.records.map((r) => r.id)).toEqual([0, 1]);
    expect(episode.log.map((e) => e.tool)).toEqual(['reset', 'add_gaussians']);
  });

  it('keeps the staged change after a refused call and shows the error as the model would see it', async () => {
    const text = "ERROR: nothing was added. #0: position [2.0, 0.0, 0.0] is outside [-1.25, 1.25]^3\n[0/300 Gaussians | calls left 39 | renders left 16]";
    const api = fakeApi([() => ({ step: 1, text, error: true, done: false, budgets: budgets(39, 0), scene: [], nextId: 0 })]);
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    await episode.start(api, 't', 'matched');
    staging.addPreset('sphere', [2, 0, 0], [1, 0, 0], null);
    expect(await episode.commit(api)).toEqual({ sent: 1, error: true });
    expect(staging.dirty).toBe(true);
    expect(staging.plan.calls[0].tool).toBe('add_gaussians');
    expect(episode.log[1]).toMatchObject({ tool: 'add_gaussians', error: true, text });
    expect(episode.budgets?.callsLeft).toBe(39);
  });

  it('sends a multi-call plan in order and stops at the first refusal, keeping the rest staged', async () => {
    const base = [sphere(0, 0), sphere(1, 0.5)];
    const api = fakeApi([
      () => ({ step: 1, text: 'Deleted 1 Gaussian.\n[1/300 Gaussians | calls left 39 | renders left 16]', error: false, done: false, budgets: budgets(39, 1), scene: [base[0]], nextId: 2 }),
      () => ({ step: 2, text: 'ERROR: nothing was added. over budget\n[1/300 Gaussians | calls left 38 | renders left 16]', error: true, done: false, budgets: budgets(38, 1), scene: [base[0]], nextId: 2 }),
    ]);
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    await episode.start(api, 't', 'matched');
    staging.reset(base, 2);
    staging.select([1]);
    staging.deleteSelection();
    staging.addPreset('needle', [0, 0, 0.5], [0, 0, 1], null);
    expect(staging.plan.single).toBe(false);
    expect(await episode.commit(api)).toEqual({ sent: 2, error: true });
    expect(api.sent.filter((s) => s.method === 'episode.step').map((s) => (s.params as { tool: string }).tool)).toEqual(['delete_gaussians', 'add_gaussians']);
    expect(staging.plan.calls.map((c) => c.tool)).toEqual(['add_gaussians']);
    expect(staging.base.records.map((r) => r.id)).toEqual([0]);
  });

  it('keeps every staged edit (and its undo) through renders and listings, which act on the committed scene', async () => {
    const quiet = (tool: string) => () => ({ step: 1, text: `${tool} ok\n[0/300 Gaussians | calls left 39 | renders left 15]`, error: false, done: false, budgets: budgets(39, 0), scene: [], nextId: 0 });
    const tools = ['render_views', 'render_angle', 'view_references', 'list_gaussians', 'describe_groups'];
    const api = fakeApi(tools.map(quiet));
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    await episode.start(api, 't', 'matched');
    staging.addPreset('sphere', [0.1, 0, 0], [1, 0, 0], null);
    staging.addPreset('disc', [0.2, 0, 0], [0, 1, 0], null);
    const before = staging.plan.calls;
    for (const tool of tools) await episode.call(api, tool, {});
    expect(staging.ops.map((o) => o.label)).toEqual(['Add sphere', 'Add disc']);
    expect(staging.plan.calls).toEqual(before);
    expect(episode.log.slice(1).map((e) => e.notIncluded)).toEqual([2, 2, 2, 2, 2]);
    expect(staging.undo()).toBe(true);
    expect(staging.ops).toHaveLength(1);
  });

  it('"commit, then render" sends the commit and then the render, in that order', async () => {
    const api = fakeApi([
      () => ({ step: 1, text: 'Added 1 Gaussian (id 0).\n[1/300 Gaussians | calls left 39 | renders left 16]', error: false, done: false, budgets: budgets(39, 1), scene: [sphere(0, 0.1)], nextId: 1 }),
      () => ({ step: 2, text: 'V0: PSNR 20 dB\n[1/300 Gaussians | calls left 38 | renders left 15]', error: false, done: false, budgets: budgets(38, 1), scene: [sphere(0, 0.1)], nextId: 1 }),
    ]);
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    await episode.start(api, 't', 'matched');
    staging.addPreset('sphere', [0.1, 0, 0], [1, 0, 0], null);
    await episode.commitThen(api, 'render_views', { views: ['V0'] });
    expect(api.sent.filter((s) => s.method === 'episode.step').map((s) => (s.params as { tool: string }).tool)).toEqual(['add_gaussians', 'render_views']);
    expect(staging.dirty).toBe(false);
    expect(episode.log[2].notIncluded).toBeUndefined();
  });

  it('clears the selection when a new episode starts (ids repeat across episodes)', async () => {
    const api = fakeApi([]);
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    episode.load({ ...snapshot, episodeId: 'old', scene: [sphere(0, 0)], nextId: 1 });
    staging.select([0]);
    episode.load({ ...snapshot, episodeId: 'new', scene: [sphere(0, 0.5)], nextId: 1 });
    expect(staging.selection).toEqual([]);
    expect(api.sent).toHaveLength(0);
  });
});

describe('an episode open in another tab', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('restore refused with in_use leaves the store inactive and says the episode is open elsewhere', async () => {
    const api = {
      call: (async () => {
        throw new LabCallError('in_use', 'episode.get: this episode is open in another tab or window');
      }) as LabApi['call'],
      on: () => () => undefined,
    } as LabApi;
    const ep = useEpisodeStore();
    expect(await ep.restore(api, 'e1')).toBe(false);
    expect(ep.active).toBe(false);
    expect(ep.elsewhere).toBe(true);
    // Any other failure is not "elsewhere".
    const down = { call: (async () => { throw new LabCallError('failed', 'no'); }) as LabApi['call'], on: () => () => undefined } as LabApi;
    expect(await ep.restore(down, 'e1')).toBe(false);
    expect(ep.elsewhere).toBe(false);
  });
});
