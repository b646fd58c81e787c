// EpisodeManager: the live episodes of this process, each a SplatEnv with its trajectory log.
// Used by the episode LabApi handlers (free play) and by the study side (which chooses the log
// path, the protocol and the player, and reads the final grade after the end).
// Inputs: task ids, tool calls. Outputs: public snapshots and step results (src/shared/api/episode).
// Invariants: the grader is created once, lazily, on the first start; every charged call is in
// the log before step() resolves (SplatEnv); hidden grades leave this class only through
// finalGrade(), which no LabApi row of the player calls. Time (issue 11, "Honest time"): pauses,
// lost pages and restarts are time records in the log, and every clock reading comes from
// episodeClock(); an episode's id is in its header and in <home>/.episodes/<id>.json, so after a
// restart the page's id finds its log again (reattach) and the page carries on.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { confinedPath } from '../io/confine';
import type { EpisodeEntry, EpisodeSnapshot, EpisodeStepResult, EpisodeTime, PageTimeEvent, PlayProtocol, PublicGaussian } from '../../shared/api/episode';
import type { ProtocolOptions } from '../../shared/env/protocol';
import { episodeClock } from '../../shared/env/time';
import type { TimeEvent, TimeRecord } from '../../shared/env/trajectory-schema';
import { DEFAULT_PROTOCOL_OPTIONS } from '../../shared/env/protocol';
import type { ToolOut } from '../env/tool-out';
import type { KindEnv, KindGrade, KindTask } from '../kinds/kind';
import { loadAnyTask, mainKind } from '../kinds/registry';
import { readTrajectory } from '../env/trajectory';
import { ReplayError } from '../../shared/kinds/replay';
import { kindModule } from '../../shared/kinds/registry';
import { EpisodeRecall, lastAlive } from './recall';
import { forgetAlive, readAlive, writeAlive } from './alive';
import { appendProcessEventsAsync } from './process-writer';
import type { ProcessEvent } from '../../shared/env/process-log';
import type { EnvGrader } from '../env/types';
import type { TaskRepository } from '../kinds/repository';
import { CallActivity, GradeQueue } from '../workers/grade-queue';
import type { PngEncoder } from '../workers/png';
import type { WorkerPool } from '../workers/pool';
import { pngDataUrl, publicScene } from '../env/public';
import type { AsyncViewRenderer } from '../../shared/raster/types';

export interface EpisodeManagerDeps {
  tasksDir: string;
  /** The lab home folder (labHome()); free-play logs go to <home>/trajectories. */
  home: string;
  /** Called once, on the first start; the grader is then shared by every episode. */
  grader: () => Promise<EnvGrader>;
  version?: string;
  /** The lab's task repository (tasks loaded once); default a fresh load per episode. */
  tasks?: TaskRepository;
  /** The lab's queue of deferred hidden grades; default a queue of this manager's own. */
  grades?: GradeQueue;
  /** The lab's renderer of observation views (search); default the calling thread. */
  viewRenderer?: AsyncViewRenderer;
  /** The lab's PNG encoder of observations (search; its pool); default the calling thread. */
  encodePng?: PngEncoder;
  /** The lab's worker pool, for the kinds' own jobs (src/main/kinds/jobs.ts); default the calling thread. */
  pool?: WorkerPool;
}

export interface StartOptions {
  taskId: string;
  protocol?: PlayProtocol;
  player?: string;
  /** Protocol options (aids a study switched on or off), recorded in the trajectory header. */
  options?: ProtocolOptions;
  /** Where the trajectory goes; default <home>/trajectories/<task>-<time>-<id>.jsonl. */
  logPath?: string;
  /** Hidden grade after every edit (default true, as in any trajectory). */
  gradeEachStep?: boolean;
  /** Active seconds allowed (a study's per-task limit): the first call after it submits. */
  timeLimitS?: number;
}

/** Who holds an episode open (a connection); its close hook marks the episode disconnected. */
export interface EpisodeHolder {
  readonly id: string;
  onClose(hook: () => void): void;
}

export interface EpisodeInfo {
  episodeId: string;
  taskId: string;
  protocol: PlayProtocol;
  player: string;
  logPath: string;
  done: boolean;
}

interface Live {
  id: string;
  env: KindEnv;
  task: KindTask;
  protocol: PlayProtocol;
  player: string;
  logPath: string;
  first: ToolOut;
  history: EpisodeEntry[];
  /** The aids the player has (recorded in the header as protocol_options). */
  options: ProtocolOptions;
  /** Calls of this episode run one after another, so step numbers follow arrival order. */
  queue: Promise<unknown>;
  /** The id the episode started with (its header's): stable across restarts and resumes. */
  key: string;
  /** The header's start and every time record so far: the clock's input. */
  started: string;
  times: TimeRecord[];
  limitMs: number | null;
  /** Connections that called this episode and are still open; none left = disconnected. */
  holders: Set<string>;
  down: boolean;
  /** The last sign of a page (a heartbeat or a call arriving), epoch ms: a loss is down from here. */
  lastBeat: number;
}

/** The Gaussian scene and next id, for a kind with one (SplatBench); a kind without one sends neither. */
function withScene(env: KindEnv, nextId?: number): { scene?: PublicGaussian[]; nextId?: number } {
  const scene = env.scene?.();
  return scene ? { scene: publicScene(scene.records), nextId: nextId ?? scene.nextId } : {};
}

/** The kind's own public state, when it has one (the play view of its family reads it). */
function withKindState(env: KindEnv): { kindState?: unknown } {
  const state = env.kindState?.();
  return state === undefined ? {} : { kindState: state };
}

export class EpisodeNotFound extends Error {
  override name = 'EpisodeNotFound';
}

/** `20250131T120501Z`: sortable, no characters a file system dislikes. */
function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

export class EpisodeManager {
  private readonly live = new Map<string, Live>();
  private readonly closing = new Set<Promise<void>>();
  private readonly grades: GradeQueue;
  private graderPromise: Promise<EnvGrader> | undefined;

  private readonly recall: EpisodeRecall;

  constructor(private readonly deps: EpisodeManagerDeps) {
    this.recall = new EpisodeRecall(deps.home);
    this.grades = deps.grades ?? new GradeQueue(new CallActivity());
  }

  get trajectoriesDir(): string {
    return join(this.deps.home, 'trajectories');
  }

  async start(opts: StartOptions): Promise<EpisodeSnapshot> {
    const task = await this.task(opts.taskId);
    const id = randomBytes(6).toString('hex');
    const protocol = opts.protocol ?? 'matched';
    const player = opts.player ?? 'anonymous';
    const options: ProtocolOptions = { ...DEFAULT_PROTOCOL_OPTIONS, ...opts.options };
    const started = new Date().toISOString();
    const logPath = resolve(opts.logPath ?? join(this.trajectoriesDir, `${task.spec.task_id}-${stamp(new Date())}-${id}.jsonl`));
    const limitS = opts.timeLimitS !== undefined && opts.timeLimitS > 0 ? opts.timeLimitS : undefined;
    // Off the event loop, as the log's lock and header (issue 38 item 1).
    await mkdir(dirname(logPath), { recursive: true });
    // A start that fails leaves no new log and no live episode (#18).
    const fresh = !(await access(logPath).then(() => true, () => false));
    const discard = (): void => {
      if (fresh) rmSync(logPath, { force: true });
    };
    const { env, obs } = await mainKind(task).reset(task, {
      grader: await this.grader(),
      // Interactive play answers first and grades after (the grade is never shown anyway).
      deferHiddenGrades: this.grades,
      ...(this.deps.viewRenderer ? { viewRenderer: this.deps.viewRenderer } : {}),
      ...(this.deps.encodePng ? { encodePng: this.deps.encodePng } : {}),
      ...(this.deps.pool ? { pool: this.deps.pool } : {}),
      log: logPath,
      protocol,
      player,
      protocolOptions: options,
      ...(opts.gradeEachStep === false ? { gradeEachStep: false } : {}),
      ...(this.deps.version ? { version: this.deps.version } : {}),
      headerExtra: { episode: id, ...(limitS ? { time_limit_s: limitS } : {}) },
    }).catch((error: unknown) => {
      discard();
      throw error;
    });
    const entry: Live = { id, env, task, protocol, player, logPath, first: obs, history: [], options, queue: Promise.resolve(), key: id, started, times: [], limitMs: limitS ? limitS * 1000 : null, holders: new Set(), down: false, lastBeat: Date.now() };
    let snapshot: EpisodeSnapshot;
    try {
      snapshot = this.snapshot(entry);
    } catch (error) {
      env.close();
      discard();
      throw error;
    }
    this.live.set(id, entry);
    await this.recall.remember(id, logPath);
    return snapshot;
  }

  /**
   * Continues an episode from its log (which must lie under the lab home folder) under a new id,
   * or under `id` (reattach). The time since the log's last record is down time (a `restart`
   * record): the lab was not running the episode then.
   */
  async resume(log: string, id = randomBytes(6).toString('hex')): Promise<EpisodeSnapshot> {
    // The page is back when it asks, not when the lab has reloaded the task and grader for it.
    const askedAt = new Date().toISOString();
    // A log closed a moment ago may still be writing its last grades: let it finish first.
    await this.idle();
    const path = confinedPath(this.deps.home, log, 'cannot resume: log', 'the lab home (only logs under it can be resumed)');
    const traj = readTrajectory(path);
    const header = traj.header;
    if (!header) throw new Error(`cannot resume ${log}: no header line`);
    if (header.protocol !== 'matched' && header.protocol !== 'free') throw new Error(`cannot resume ${log}: it is a '${header.protocol}' log, not a player's`);
    const task = await this.task(header.task);
    // The aids recorded when the episode began still apply (an older log without them: the defaults).
    const recorded = header.protocol_options?.outline_overlay;
    const options: ProtocolOptions = { ...DEFAULT_PROTOCOL_OPTIONS, ...(recorded === undefined ? {} : { outline_overlay: recorded }) };
    const { env, obs } = await mainKind(task).reset(task, {
      grader: await this.grader(),
      // Interactive play answers first and grades after (the grade is never shown anyway).
      deferHiddenGrades: this.grades,
      ...(this.deps.viewRenderer ? { viewRenderer: this.deps.viewRenderer } : {}),
      ...(this.deps.encodePng ? { encodePng: this.deps.encodePng } : {}),
      ...(this.deps.pool ? { pool: this.deps.pool } : {}),
      resumeFrom: { path, trajectory: traj },
      protocol: header.protocol,
      player: header.player,
      ...(this.deps.version ? { version: this.deps.version } : {}),
    }).catch((error: unknown) => {
      // A log damaged by an older version (a repeated or missing step) says how to keep its valid part.
      if (error instanceof ReplayError) throw new ReplayError(`${error.message}; the log is damaged: 'splatlab repair ${log}' keeps the part that replays (the original is kept beside it)`);
      throw error;
    });
    if (this.live.has(id)) throw new Error(`cannot resume ${log}: episode '${id}' is live already`);
    const history: EpisodeEntry[] = env.resumed().map((s) => ({ step: s.step, tool: s.tool, args: s.args, text: s.text, error: !s.info.ok, ms: s.ms }));
    const limit = header.time_limit_s;
    const entry: Live = {
      id,
      env,
      task,
      protocol: header.protocol,
      player: header.player,
      logPath: path,
      first: obs,
      history,
      options,
      queue: Promise.resolve(),
      key: header.episode ?? id,
      started: header.started,
      times: [...traj.times],
      limitMs: limit !== undefined && limit > 0 ? limit * 1000 : null,
      holders: new Set(),
      down: false,
      lastBeat: Date.now(),
    };
    if (!env.done) {
      // Down from the last sign of life: the log's last record or the page's last heartbeat.
      const beat = readAlive(path);
      const logged = Date.parse(lastAlive(traj));
      const since = beat !== null && beat > logged && beat <= Date.now() ? new Date(beat).toISOString() : lastAlive(traj);
      await this.markNow(entry, 'restart', { since, t: askedAt });
    }
    this.live.set(id, entry);
    await this.recall.remember(id, path);
    return this.snapshot(entry);
  }

  /**
   * The live episode, or (when this process does not hold it: the lab restarted) the episode
   * continued from the log its id was recorded with. Unknown ids stay EpisodeNotFound.
   */
  async reattach(episodeId: string): Promise<EpisodeSnapshot> {
    const e = this.live.get(episodeId);
    if (e) return this.snapshot(e);
    const log = this.recall.logOf(episodeId);
    if (!log) throw new EpisodeNotFound(`no live episode '${episodeId}' (it ended with the lab process, or was closed)`);
    return this.resume(log, episodeId);
  }

  /**
   * A connection uses the episode: it is held open again (a `reconnect` record when no page
   * held it), and when the last holder closes, a `disconnect` record starts its down time.
   */
  attach(episodeId: string, holder: EpisodeHolder): void {
    const e = this.live.get(episodeId);
    if (!e) return;
    if (e.down) {
      e.down = false;
      void this.markNow(e, 'reconnect').catch(() => undefined);
    }
    e.lastBeat = Date.now();
    if (e.holders.has(holder.id)) return;
    e.holders.add(holder.id);
    holder.onClose(() => {
      const now = this.live.get(episodeId);
      if (now !== e || !e.holders.delete(holder.id) || e.holders.size > 0 || e.env.done) return;
      e.down = true;
      // Down from the last heartbeat or call of a page, not from the moment the socket closed.
      void this.markNow(e, 'disconnect', { since: new Date(Math.min(e.lastBeat, Date.now())).toISOString() }).catch(() => undefined);
    });
  }

  /** A page's time record (pause, resume, reload, hidden, visible); repeats change nothing. */
  mark(episodeId: string, event: PageTimeEvent): Promise<EpisodeTime> {
    const e = this.get(episodeId);
    const run = e.queue.then(async () => {
      const c = episodeClock({ started: e.started, steps: [], times: e.times, now: Date.now() });
      const repeat = (event === 'pause' && c.paused) || (event === 'resume' && !c.paused) || (event === 'hidden' && c.hidden) || (event === 'visible' && !c.hidden);
      if (!repeat && !e.env.done) await this.markNow(e, event);
      return this.clock(e);
    });
    e.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A page's heartbeat (twice a second, paused or not; issue 24 item 2): its arrival is kept in
   * the episode's alive file (alive.ts) and in memory, so a crash or a lost page is down from
   * the last beat; a beat that carries the page's send and paint times of calls is also a time
   * record in the log (so the log grows with the calls, not with the clock). Not queued behind
   * a running call, so a long render leaves no false gap; nothing is written after the end.
   */
  async heartbeat(episodeId: string, beat: { sentAt: number; calls?: readonly { step: number; sentAt: number; shownAt: number }[]; events?: readonly ProcessEvent[] }): Promise<EpisodeTime> {
    const now = Date.now();
    // After a restart the first beat of the page re-opens its episode (the interruption ends here).
    if (!this.live.has(episodeId)) await this.reattach(episodeId);
    const e = this.get(episodeId);
    e.lastBeat = now;
    if (!e.env.done) {
      writeAlive(e.logPath, now);
      const iso = (ms: number): string => new Date(ms).toISOString();
      const calls = (beat.calls ?? []).map((c) => ({ step: c.step, sent: iso(c.sentAt), shown: iso(c.shownAt) }));
      // Events first: when they cannot be written the beat fails before anything of it is, and
      // the page sends the same events and timings again (issue 38 item 2).
      if (beat.events?.length) {
        try {
          await appendProcessEventsAsync(e.logPath, beat.events);
        } catch (error) {
          throw new Error(`the page's process events were not written (${error instanceof Error ? error.message : String(error)}); they are sent again with the next beat`);
        }
      }
      if (calls.length) await this.markNow(e, 'heartbeat', { t: iso(now), client_t: iso(beat.sentAt), calls });
    }
    return this.clock(e);
  }

  /** The episode's clock now (active, paused, down time; the limit). */
  time(episodeId: string): EpisodeTime {
    return this.clock(this.get(episodeId));
  }

  /**
   * One call of the episode, after the ones before it. With a request id it is charged at most
   * once: a retry (after a lost reply, a reconnect or a restart) gets the stored result, marked
   * `recalled` (docs/SECURITY.md, "Exactly-once calls").
   */
  step(episodeId: string, call: { tool: string; args?: unknown }, requestId?: string): Promise<EpisodeStepResult> {
    const e = this.get(episodeId);
    const run = e.queue.then(() => this.stepNow(e, call, requestId));
    e.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The result of the call sent with `requestId` (after the calls before it), or null when this
   * episode never received it: then sending it again is safe and is charged once.
   */
  result(episodeId: string, requestId: string): Promise<EpisodeStepResult | null> {
    const e = this.get(episodeId);
    const run = e.queue.then(async () => {
      const known = e.env.recall(requestId);
      return known ? this.stepResult(e, await known) : null;
    });
    e.queue = run.catch(() => undefined);
    return run;
  }

  private async stepNow(e: Live, asked: { tool: string; args?: unknown }, requestId: string | undefined): Promise<EpisodeStepResult> {
    const known = requestId === undefined ? null : e.env.recall(requestId);
    if (known) return this.stepResult(e, await known);
    const before = this.clock(e);
    if (before.paused && !e.env.done) throw new Error('the episode is paused: resume it to go on (nothing was charged)');
    let call = asked;
    if (before.limitMs !== null && before.activeMs >= before.limitMs && !e.env.done) {
      // Out of time: the kind's give-up call replaces the call (SplatBench submits the scene as it
      // stands; a search episode stops unanswered, a relation block ends), so every kind ends.
      await this.markNow(e, 'time_limit');
      call = kindModule(e.task.spec.kind).giveUp;
    }
    const t0 = Date.now();
    const out = await e.env.step({ tool: call.tool, args: call.args ?? {} }, requestId);
    if (!out.recalled && out.info.step !== null) {
      const image = out.image ? pngDataUrl(out.image) : undefined;
      e.history.push({ step: out.info.step, tool: call.tool, args: call.args ?? {}, text: out.text, error: !out.info.ok, ms: Date.now() - t0, ...(image ? { image } : {}) });
    }
    return this.stepResult(e, out);
  }

  /** The LabApi result of a call: its own text, image and info; budgets, scene and clock as they stand. */
  private stepResult(e: Live, out: ToolOut): EpisodeStepResult {
    const info = out.info;
    const error = !info.ok;
    const image = out.image ? pngDataUrl(out.image) : undefined;
    return {
      step: info.step ?? e.env.currentInfo().step ?? 0,
      text: out.text,
      error,
      done: out.done,
      info,
      budgets: e.env.publicBudgets(),
      ...withScene(e.env, info.nextId),
      time: this.clock(e),
      ...(image ? { image } : {}),
      ...withKindState(e.env),
      ...(out.recalled ? { recalled: true } : {}),
    };
  }

  snapshotOf(episodeId: string): EpisodeSnapshot {
    return this.snapshot(this.get(episodeId));
  }

  info(episodeId: string): EpisodeInfo {
    const e = this.get(episodeId);
    return { episodeId, taskId: e.task.spec.task_id, protocol: e.protocol, player: e.player, logPath: e.logPath, done: e.env.done };
  }

  /** The held-out grade after the end (main side only: for the experimenter, never a player). */
  finalGrade(episodeId: string): KindGrade | null {
    return this.get(episodeId).env.finalGrade();
  }

  /** Releases a live episode; `forget` (a page left it) also drops its id from the lab home. */
  close(episodeId: string, forget = true): boolean {
    const e = this.live.get(episodeId);
    if (!e) return false;
    this.live.delete(episodeId);
    if (forget) {
      this.recall.forget(episodeId);
      forgetAlive(e.logPath);
    }
    const closing = e.env.close();
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
    return true;
  }

  /** Resolves when every closed episode's log is complete and closed (pending grades written). */
  async idle(): Promise<void> {
    while (this.closing.size) await Promise.all([...this.closing]);
  }

  /** Shutdown: every log closed; ids stay recorded, so pages reattach after the restart. */
  closeAll(): void {
    for (const id of [...this.live.keys()]) this.close(id, false);
  }

  private get(episodeId: string): Live {
    const e = this.live.get(episodeId);
    if (!e) throw new EpisodeNotFound(`no live episode '${episodeId}' (it ended with the lab process, or was closed)`);
    return e;
  }

  private task(taskId: string): Promise<KindTask> {
    return this.deps.tasks ? this.deps.tasks.getAny(taskId) : loadAnyTask(taskId, { tasksDir: this.deps.tasksDir });
  }

  /** Live episodes now (a leak shows as growth here). */
  get liveCount(): number {
    return this.live.size;
  }

  private grader(): Promise<EnvGrader> {
    this.graderPromise ??= this.deps.grader();
    this.graderPromise.catch(() => (this.graderPromise = undefined));
    return this.graderPromise;
  }

  private clock(e: Live): EpisodeTime {
    const c = episodeClock({ started: e.started, steps: [], times: e.times, now: Date.now() });
    return { activeMs: c.activeMs, pausedMs: c.pausedMs, downMs: c.downMs, paused: c.paused, limitMs: e.limitMs };
  }

  private async markNow(e: Live, event: TimeEvent, extra: Partial<TimeRecord> = {}): Promise<void> {
    const record: TimeRecord = { type: 'time', event, t: new Date().toISOString(), step: e.history.at(-1)?.step ?? 0, ...extra };
    if (event !== 'heartbeat') e.lastBeat = Date.now();
    // Counted only once it is on disk (a failed write leaves the clock as the log has it).
    await e.env.mark(record);
    e.times.push(record);
  }

  private snapshot(e: Live): EpisodeSnapshot {
    if (!e.first.image) throw new Error('the first observation has no reference sheet');
    return {
      episodeId: e.id,
      taskId: e.task.spec.task_id,
      kind: e.task.spec.kind,
      protocol: e.protocol,
      player: e.player,
      text: e.first.text,
      image: pngDataUrl(e.first.image),
      budgets: e.env.publicBudgets(),
      ...withScene(e.env),
      referenceViews: e.env.publicViews?.() ?? [],
      ...withKindState(e.env),
      done: e.env.done,
      history: e.history,
      options: { ...e.options },
      key: e.key,
      time: this.clock(e),
    };
  }
}
