// Episode store (Pinia setup store): the live episode as the player sees it — first observation,
// reference views, budgets, the log of tool results — and the calls that spend the budget.
// Inputs: LabApi results of the episode rows. Outputs: reactive state for PlayView; every scene
// the episode returns is handed to the staging store.
// Invariants: only public episode data lands here (the API rows carry nothing hidden); a call
// goes out only when no other call is in flight, so results arrive in order; only the four
// scene tools move the committed scene, so a render or listing never touches staged edits.
// Staged edits are saved per episode key (staging-persist.ts) after every change and taken back
// when the episode loads again (reload, reconnect after the server restarted); a lost connection
// fails the call in flight at once (busy is cleared), and `pause` stops the clock in the log.
// While an episode is live the page beats twice a second (heartbeat.ts) and reports when it sent
// each call and when its answer was first painted, so main can tell think from compute time.
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { LabApi } from '../../shared/api/lab';
import type { EpisodeBudgets, EpisodeSnapshot, EpisodeStepResult, EpisodeTime, PageTimeEvent, PlayProtocol, PublicView } from '../../shared/api/episode';
import { DEFAULT_PROTOCOL_OPTIONS, type ProtocolOptions } from '../../shared/env/protocol';
import { LabCallError } from '../../shared/api/messages';
import { exactlyOnce, newRequestId } from '../../shared/api/exactly-once';
import { dropStaging, loadStaging, saveStaging } from './staging-persist';
import type { TaskKind } from '../../shared/task/schema';
import { useStagingStore } from './staging';
import { usePlayViewStore } from './play-view';
import { Heartbeat, paintedAt } from './heartbeat';
import { pageNow } from '../study/paint-clock';
import { processEvent, recordProcess } from './process-recorder';
import { markStartAnswered } from './start-paint';

export interface LogEntry {
  key: number;
  tool: string;
  args: unknown;
  text: string;
  image?: string;
  error: boolean;
  /** Staged edits the call did not see (a render or listing acts on the committed scene). */
  notIncluded?: number;
}

/** The tools that change the scene; every other call leaves the staged edits alone. */
export const SCENE_TOOLS: ReadonlySet<string> = new Set(['add_gaussians', 'edit_gaussians', 'delete_gaussians', 'transform_group']);

/**
 * One episode.step with its own request id: when the connection drops before the answer, the page
 * asks for the stored result once it is back and sends the call again (same id) only when the lab
 * never received it, so a call is charged once and its outcome is always known (docs/SECURITY.md).
 */
function stepOnce(api: LabApi, episodeId: string, tool: string, args: unknown): Promise<EpisodeStepResult> {
  const requestId = newRequestId();
  // After a drop, the lab may still hold the old connection as the episode's owner for a moment.
  let dropped = false;
  const retryable = (e: unknown): boolean => {
    if (!(e instanceof LabCallError)) return false;
    if (e.code === 'disconnected') dropped = true;
    return e.code === 'disconnected' || (dropped && e.code === 'in_use');
  };
  return exactlyOnce(
    () => api.call('episode.step', { episodeId, tool, args, requestId }),
    () => api.call('episode.result', { episodeId, requestId }),
    { retryable },
  );
}

export const useEpisodeStore = defineStore('episode', () => {
  const episodeId = ref<string | null>(null);
  const taskId = ref<string | null>(null);
  const kind = ref<TaskKind | null>(null);
  const protocol = ref<PlayProtocol>('matched');
  /** The aids this episode was started with (from its snapshot, so a reload or a study keeps them). */
  const options = ref<ProtocolOptions>({ ...DEFAULT_PROTOCOL_OPTIONS });
  const views = shallowRef<PublicView[]>([]);
  const sheet = ref<string | null>(null);
  const budgets = ref<EpisodeBudgets | null>(null);
  const log = ref<LogEntry[]>([]);
  const done = ref(false);
  const busy = ref<string | null>(null);
  const failure = ref<string | null>(null);
  /** Names the episode across restarts (staged edits are saved under it). */
  const key = ref<string | null>(null);
  /** The clock as main last reported it (paused, active time, the limit). */
  const time = ref<EpisodeTime | null>(null);
  /** When `time` arrived (epoch ms): a countdown runs on from it while the episode is active. */
  const timeAt = ref(Date.now());
  watch(time, () => (timeAt.value = Date.now()));
  /** The last call failed because the connection was lost (the banner says the rest). */
  const disconnected = ref(false);
  let nextKey = 1;

  const active = computed(() => episodeId.value !== null);
  const staged = useStagingStore();

  // The heartbeat goes over the api the episode was last used through (start, restore, a call).
  let beatApi: LabApi | null = null;
  const heartbeat = new Heartbeat(async (beat) => {
    const id = episodeId.value;
    if (!id || !beatApi || done.value) return;
    const t = await beatApi.call('episode.heartbeat', { episodeId: id, ...beat });
    if (episodeId.value === id) time.value = t;
  });
  /**
   * Beats over `api` while the episode is live. `openedAt` (page clock) is when this page asked
   * for a new episode: the first observation's paint is reported as step 0 shown, where the
   * person's time starts (loading the task is the lab's time).
   */
  function beatVia(api: LabApi, openedAt?: number): void {
    beatApi = api;
    if (episodeId.value && !done.value) heartbeat.start();
    else heartbeat.stop();
    recordProcess(heartbeat.running);
    if (openedAt !== undefined && heartbeat.running && log.value.length === 1) void paintedAt().then((shownAt) => heartbeat.shown({ step: 0, sentAt: openedAt, shownAt }));
  }
  watch(done, (d) => {
    if (!d) return;
    heartbeat.stop();
    recordProcess(false);
  });
  // The process log (process-recorder.ts): staged edits, undo/redo and selection as they happen.
  watch([() => staged.ops, () => staged.past.length, () => staged.future.length], ([ops, pastN, futureN], [prevOps, prevPast, prevFuture]) => {
    if (futureN > prevFuture) return processEvent('undo', { staged: ops.length });
    if (futureN < prevFuture && pastN > prevPast) return processEvent('redo', { staged: ops.length });
    const last = ops.at(-1);
    const d = last ? { label: last.label, kind: last.kind, staged: ops.length, ...('ids' in last ? { ids: last.ids } : {}) } : { staged: 0 };
    if (ops.length > prevOps.length) processEvent('stage.add', d);
    else if (ops.length < prevOps.length) processEvent('stage.remove', d);
    else if (last && last !== prevOps.at(-1)) processEvent('stage.change', d);
  });
  watch(() => staged.selection, (ids) => processEvent('select', { ids: [...ids].slice(0, 64) }));
  if (typeof window !== 'undefined') {
    window.addEventListener('focus', () => processEvent('focus'));
    window.addEventListener('blur', () => processEvent('blur'));
  }
  /** Times one call as the page sees it: sent now, shown at the frame after its answer lands. */
  async function timed<T extends { step: number; error?: boolean }>(work: () => Promise<T>): Promise<T> {
    const sentAt = pageNow();
    const r = await work();
    void paintedAt().then((shownAt) => heartbeat.shown({ step: r.step, sentAt, shownAt }));
    return r;
  }
  const paused = computed(() => time.value?.paused === true);

  watch([() => staged.base, () => staged.ops, () => staged.past, () => staged.future], () => {
    if (key.value && !done.value) saveStaging({ v: 1, key: key.value, base: staged.base, ops: staged.ops, past: staged.past, future: staged.future });
  });

  function load(s: EpisodeSnapshot): void {
    const fresh = episodeId.value !== s.episodeId;
    key.value = s.key ?? s.episodeId;
    time.value = s.time ?? null;
    const saved = s.done ? null : loadStaging(key.value);
    episodeId.value = s.episodeId;
    taskId.value = s.taskId;
    kind.value = s.kind;
    protocol.value = s.protocol;
    // The aids come from main (the study's or the play form's choice, as the log records them).
    options.value = { ...DEFAULT_PROTOCOL_OPTIONS, ...s.options };
    views.value = s.referenceViews;
    sheet.value = s.image;
    budgets.value = s.budgets;
    done.value = s.done;
    log.value = [
      { key: nextKey++, tool: 'reset', args: {}, text: s.text, image: s.image, error: false },
      ...s.history.map((h) => ({ key: nextKey++, tool: h.tool, args: h.args, text: h.text, error: h.error, ...(h.image ? { image: h.image } : {}) })),
    ];
    const staging = useStagingStore();
    // The same episode again (a reconnect): the person's selection stays with the edits.
    const keep = fresh ? [] : [...staging.selection];
    // A kind without a Gaussian scene (no `scene` in the snapshot) stages nothing: an empty base.
    const base = s.scene ?? [];
    const baseNext = s.nextId ?? 0;
    staging.reset(base, baseNext);
    if (saved) staging.adopt(saved, base, baseNext, keep);
    if (s.done) dropStaging(key.value);
    // Ids repeat across episodes: a selection carried over would pick the wrong Gaussians.
    if (fresh) {
      staging.select([]);
      usePlayViewStore().clear();
    }
    try {
      sessionStorage.setItem('splatlab-episode', s.episodeId);
    } catch {
      // Storage may be unavailable (private mode); reload then starts fresh.
    }
  }

  /** The last call was refused because another tab or window plays this episode. */
  const elsewhere = ref(false);

  async function guarded<T>(what: string, work: () => Promise<T>): Promise<T | null> {
    if (busy.value) return null;
    busy.value = what;
    failure.value = null;
    disconnected.value = false;
    elsewhere.value = false;
    try {
      return await work();
    } catch (e) {
      disconnected.value = e instanceof LabCallError && e.code === 'disconnected';
      // Another tab or window owns this episode (main answered in_use): read-only here.
      elsewhere.value = e instanceof LabCallError && e.code === 'in_use';
      failure.value = e instanceof Error ? e.message : String(e);
      return null;
    } finally {
      busy.value = null;
    }
  }

  async function start(api: LabApi, task: string, chosen: PlayProtocol, player?: string, opts: ProtocolOptions = DEFAULT_PROTOCOL_OPTIONS): Promise<boolean> {
    const openedAt = pageNow();
    const s = await guarded('Starting the episode', () => api.call('episode.start', { taskId: task, protocol: chosen, options: opts, ...(player ? { player } : {}) }));
    if (s) {
      markStartAnswered(); // the bench measures the first frame from here (start-paint.ts)
      dropStaging(s.key ?? s.episodeId); // a new episode has no staged edits to take back
      load(s);
      beatVia(api, openedAt);
    }
    return s !== null;
  }

  /** Re-attaches to the episode this tab was playing (after a reload), if it is still live. */
  async function restore(api: LabApi, id: string): Promise<boolean> {
    const s = await guarded('Reconnecting', () => api.call('episode.get', { episodeId: id }));
    if (s) {
      load(s);
      beatVia(api);
    }
    return s !== null;
  }

  /**
   * After the connection came back: the episode as main holds it now (main continues it from
   * its log when the server restarted), with the staged edits of this page kept.
   */
  async function reconnect(api: LabApi): Promise<boolean> {
    const id = episodeId.value;
    if (!id) return false;
    const s = await guarded('Reconnecting', () => api.call('episode.get', { episodeId: id }));
    if (s) {
      load(s);
      beatVia(api);
    }
    return s !== null;
  }

  /** The episode as main holds it now, not loaded into the store (a kind's play view reads its kind state); null when unreadable. */
  async function snapshot(api: LabApi): Promise<EpisodeSnapshot | null> {
    const id = episodeId.value;
    return id ? api.call('episode.get', { episodeId: id }).catch(() => null) : null;
  }

  /** Pause or resume the episode's clock (calls are refused while paused; staged edits stay). */
  async function setPaused(api: LabApi, pause: boolean): Promise<boolean> {
    const id = episodeId.value;
    if (!id || done.value) return false;
    processEvent(pause ? 'pause' : 'resume');
    const t = await guarded(pause ? 'Pausing' : 'Resuming', () => api.call('episode.mark', { episodeId: id, event: pause ? 'pause' : 'resume' }));
    if (t) time.value = t;
    return t !== null;
  }

  /** A page event for the log (reload, window hidden/visible); best effort, never blocks play. */
  function mark(api: LabApi, event: PageTimeEvent): void {
    const id = episodeId.value;
    if (!id || done.value) return;
    void api
      .call('episode.mark', { episodeId: id, event })
      .then((t) => (time.value = t))
      .catch(() => undefined);
  }

  function record(tool: string, args: unknown, r: EpisodeStepResult, notIncluded = 0): void {
    const entry: LogEntry = { key: nextKey++, tool, args, text: r.text, error: r.error, ...(r.image ? { image: r.image } : {}) };
    if (notIncluded > 0) entry.notIncluded = notIncluded;
    log.value = [...log.value, entry];
    budgets.value = r.budgets;
    done.value = r.done;
    if (r.time) time.value = r.time;
    if (r.done && key.value) dropStaging(key.value);
  }

  /**
   * One tool call. Returns the result (null when the call could not be sent). A scene tool's
   * result becomes the committed scene; any other call acts on the committed scene and leaves
   * the staged edits (and their undo history) exactly as they were.
   */
  async function call(api: LabApi, tool: string, args: Record<string, unknown> = {}): Promise<EpisodeStepResult | null> {
    const id = episodeId.value;
    if (!id || done.value) return null;
    const staging = useStagingStore();
    const pending = staging.dirty ? staging.ops.length : 0;
    beatApi ??= api;
    const r = await guarded(tool, () => timed(() => stepOnce(api, id, tool, args)));
    if (!r) return null;
    const scene = SCENE_TOOLS.has(tool);
    record(tool, args, r, scene ? 0 : pending);
    if (!r.error && scene && r.scene) staging.rebase(r.scene, r.nextId ?? 0, true);
    return r;
  }

  /** Commit, then (if every commit call went through and the episode goes on) one more call. */
  async function commitThen(api: LabApi, tool: string, args: Record<string, unknown> = {}): Promise<EpisodeStepResult | null> {
    const c = await commit(api);
    if (c.error || done.value) return null;
    return call(api, tool, args);
  }

  /**
   * Commits the staged change with the planned call(s), in order, stopping at the first refusal.
   * A refused call keeps what is still pending staged so the person can fix it.
   */
  async function commit(api: LabApi): Promise<{ sent: number; error: boolean }> {
    const staging = useStagingStore();
    const id = episodeId.value;
    const calls = staging.plan.calls;
    if (!id || done.value || calls.length === 0) return { sent: 0, error: false };
    // The process log says which calls were one commit: the per-commit score curve (Results) shows
    // only the state after the whole commit, as the person saw it (issue 42).
    const b = budgets.value;
    if (b) processEvent('commit', { first: b.maxToolCalls - b.callsLeft + 1, calls: calls.length });
    let sent = 0;
    const outcome = await guarded('Committing', async () => {
      for (const [i, c] of calls.entries()) {
        const r = await timed(() => stepOnce(api, id, c.tool, c.args));
        sent += 1;
        record(c.tool, c.args, r);
        if (r.error) return true;
        if (r.scene) staging.rebase(r.scene, r.nextId ?? 0, i === calls.length - 1);
        if (r.done) return false;
      }
      return false;
    });
    return { sent, error: outcome !== false };
  }

  /** Leaves the view and releases the live episode (its trajectory stays on disk). */
  function leave(api: LabApi | undefined): void {
    const id = episodeId.value;
    heartbeat.stop();
    recordProcess(false);
    if (id && api) void api.call('episode.close', { episodeId: id }).catch(() => undefined);
    if (key.value) dropStaging(key.value);
    key.value = null;
    time.value = null;
    episodeId.value = null;
    log.value = [];
    done.value = false;
    try {
      sessionStorage.removeItem('splatlab-episode');
    } catch {
      // See load().
    }
  }

  return {
    episodeId, taskId, kind, protocol, options, views, sheet, budgets, log, done, busy, failure, active, key, time, timeAt, paused, disconnected, elsewhere,
    start, restore, reconnect, snapshot, setPaused, mark, call, commit, commitThen, leave, load, beatVia,
  };
});
