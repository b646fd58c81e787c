// A lost connection in the renderer: the socket client fails calls at once while the server is
// gone and reconnects with backoff (link state, reconnected hook); staged edits are saved per
// episode key and come back on reload and reconnect, also when a commit landed meanwhile.
import { nextTick } from 'vue';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { socketClient } from '../../../src/renderer/api/client';
import { backoffMs, createLink } from '../../../src/renderer/api/link';
import type { LabApi } from '../../../src/shared/api/lab';
import type { EpisodeSnapshot, PublicGaussian } from '../../../src/shared/api/episode';
import { LabCallError, MAX_MESSAGE_BYTES } from '../../../src/shared/api/messages';
import { useEpisodeStore } from '../../../src/renderer/stores/episode';
import { useStagingStore } from '../../../src/renderer/stores/staging';
import { loadStaging } from '../../../src/renderer/stores/staging-persist';

/** A WebSocket stand-in: the test opens, answers and closes each socket. */
class FakeSocket extends EventTarget {
  static readonly OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  constructor(readonly url: string) {
    super();
    FakeSocket.made.push(this);
  }
  send(data: string): void {
    this.sent.push(data);
  }
  open(): void {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  reply(id: number, result: unknown): void {
    const e = new Event('message') as Event & { data: string };
    e.data = JSON.stringify({ id, ok: true, result });
    this.dispatchEvent(e);
  }
  drop(): void {
    this.readyState = 3;
    this.dispatchEvent(new Event('close'));
  }
}

const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!ok()) throw new Error('condition not reached');
};

describe('socket client reconnects', () => {
  beforeEach(() => (FakeSocket.made = []));

  it('refuses a message over the lab limit in words, sending nothing (issue 38 item 5)', async () => {
    const api = socketClient('ws://x/lab', { WebSocketImpl: FakeSocket as unknown as typeof WebSocket, link: createLink(), backoff: () => 10 });
    const socket = FakeSocket.made[0];
    socket.open();
    const big = api.call('author.upload.put', { uploadId: 'u', path: 'a.png', data: 'x'.repeat(MAX_MESSAGE_BYTES), append: false });
    await expect(big).rejects.toMatchObject({ code: 'too_large', message: expect.stringMatching(/author\.upload\.put: the message is larger than the 8 MiB/) });
    expect(socket.sent).toEqual([]);
  });

  it('fails the call in flight and calls made while lost at once, then reconnects and runs the hook', async () => {
    const link = createLink();
    let reconnected = 0;
    link.onReconnected(() => (reconnected += 1));
    const api = socketClient('ws://x/lab', { WebSocketImpl: FakeSocket as unknown as typeof WebSocket, link, backoff: () => 10 });
    const first = FakeSocket.made[0];
    const answer = api.call('app.info', {});
    first.open();
    await until(() => first.sent.length === 1);
    expect(link.status.state).toBe('open');
    const inFlight = api.call('tasks.list', {});
    await until(() => first.sent.length === 2);
    first.reply(1, { ok: 1 });
    await expect(answer).resolves.toEqual({ ok: 1 });
    first.drop();
    await expect(inFlight).rejects.toMatchObject({ code: 'disconnected' });
    expect(link.status.state).toBe('lost');
    await expect(api.call('tasks.list', {})).rejects.toBeInstanceOf(LabCallError);
    await until(() => FakeSocket.made.length === 2);
    FakeSocket.made[1].drop(); // the server is still down: another try after backoff
    await until(() => FakeSocket.made.length === 3);
    expect(link.status.attempt).toBe(2);
    expect(reconnected).toBe(0);
    FakeSocket.made[2].open();
    expect(link.status.state).toBe('open');
    expect(reconnected).toBe(1);
    const again = api.call('tasks.list', {});
    await until(() => FakeSocket.made[2].sent.length === 1);
    FakeSocket.made[2].reply(JSON.parse(FakeSocket.made[2].sent[0]).id, []);
    await expect(again).resolves.toEqual([]);
  });

  it('backs off from 250 ms doubling to at most 4 s', () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, () => 0.5))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
  });
});

const sphere = (id: number, x: number): PublicGaussian => ({ id, pos: [x, 0, 0], scale: [0.08, 0.08, 0.08], quat: [1, 0, 0, 0], color: [1, 0, 0], opacity: 1 });
const budgets = { gaussians: 1, maxGaussians: 300, callsLeft: 39, maxToolCalls: 40, rendersLeft: 16, maxRenders: 16 };
const snap = (scene: PublicGaussian[], nextId: number): EpisodeSnapshot => ({
  episodeId: 'e1', key: 'k1', taskId: 't', kind: 'sculpt', protocol: 'matched', player: 'p', text: 'first', image: 'data:image/png;base64,AA==',
  budgets, scene, nextId, referenceViews: [], done: false, history: [], options: { outline_overlay: true },
});
const getApi = (s: () => EpisodeSnapshot): LabApi => ({ call: (async () => s()) as LabApi['call'], on: () => () => undefined });

describe('staged edits across a reload and a reconnect', () => {
  beforeEach(() => {
    localStorage.clear();
    setActivePinia(createPinia());
  });

  it('keeps staged ops and their undo history when the scene is unchanged', async () => {
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    episode.load(snap([sphere(0, 0)], 1));
    staging.addPreset('sphere', [0.3, 0, 0], [0, 1, 0], null);
    staging.editFields([1], { pos: [0.4, 0, 0] }, 'move');
    await nextTick();
    expect(loadStaging('k1')?.ops).toHaveLength(2);
    // A reload: fresh stores, the same snapshot from main.
    setActivePinia(createPinia());
    const again = useEpisodeStore();
    const staged = useStagingStore();
    expect(await again.restore(getApi(() => snap([sphere(0, 0)], 1)), 'e1')).toBe(true);
    expect(staged.ops).toHaveLength(2);
    expect(staged.work.records.find((r) => r.id === 1)?.pos).toEqual([0.4, 0, 0]);
    expect(staged.undo()).toBe(true);
    expect(staged.work.records.find((r) => r.id === 1)?.pos).toEqual([0.3, 0, 0]);
  });

  it('re-stages what is still missing when a call landed before the connection was lost', async () => {
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    episode.load(snap([], 0));
    staging.addPreset('sphere', [0.3, 0, 0], [0, 1, 0], null);
    staging.addPreset('sphere', [-0.3, 0, 0], [0, 0, 1], null);
    staging.select([1]);
    await nextTick();
    // Main logged the add of the first sphere only (the reply never came back).
    const landed = { ...staging.work.records[0], id: 0 };
    expect(await episode.reconnect(getApi(() => snap([landed], 1)))).toBe(true);
    expect(staging.base.records.map((r) => r.pos[0])).toEqual([0.3]);
    expect(staging.work.records.map((r) => r.pos[0]).sort()).toEqual([-0.3, 0.3]);
    expect(staging.plan.calls.map((c) => c.tool)).toEqual(['add_gaussians']);
  });

  it('drops the saved edits when the episode is left, and ignores a damaged entry', async () => {
    const episode = useEpisodeStore();
    const staging = useStagingStore();
    episode.load(snap([], 0));
    staging.addPreset('sphere', [0.3, 0, 0], [0, 1, 0], null);
    await nextTick();
    episode.leave(undefined);
    expect(loadStaging('k1')).toBeNull();
    localStorage.setItem('splatlab-staged:k1', '{"v":1,"key":"k1","base":7}');
    episode.load(snap([], 0));
    expect(staging.ops).toHaveLength(0);
    expect(localStorage.getItem('splatlab-staged:k1')).toBeNull();
  });
});
