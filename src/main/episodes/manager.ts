// EpisodeManager: the live episodes of this process, each a SplatEnv with its trajectory log.
// Used by the episode LabApi handlers (free play) and by the study side (which chooses the log
// path, the protocol and the player, and reads the final grade after the end).
// Inputs: task ids, tool calls. Outputs: public snapshots and step results (src/shared/api/episode).
// Invariants: the grader is created once, lazily, on the first start; every charged call is in
// the log before step() resolves (SplatEnv); hidden grades leave this class only through
// finalGrade(), which no LabApi row of the player calls.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { confinedPath } from '../app/confine';
import type { EpisodeEntry, EpisodeSnapshot, EpisodeStepResult, PlayProtocol, ProtocolOptions } from '../../shared/api/episode';
import { DEFAULT_PROTOCOL_OPTIONS } from '../../shared/api/episode';
import type { ToolOut } from '../env/env';
import type { KindEnv, KindTask } from '../kinds/kind';
import { loadAnyTask, mainKind } from '../kinds/registry';
import { envImages } from '../env/images';
import { readTrajectory } from '../env/trajectory';
import type { EnvGradeResult, EnvGrader, EnvImages } from '../env/types';
import type { TaskRepository } from '../tasks/repository';
import { CallActivity, GradeQueue } from '../workers/grade-queue';
import { pngDataUrl, publicScene } from './public';

export interface EpisodeManagerDeps {
  tasksDir: string;
  /** The lab home folder (labHome()); free-play logs go to <home>/trajectories. */
  home: string;
  /** Called once, on the first start; the grader is then shared by every episode. */
  grader: () => Promise<EnvGrader>;
  images?: EnvImages;
  version?: string;
  /** The lab's task repository (tasks loaded once); default a fresh load per episode. */
  tasks?: TaskRepository;
  /** The lab's queue of deferred hidden grades; default a queue of this manager's own. */
  grades?: GradeQueue;
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
}

/** The kind's own public state, when it has one (the play view of its family reads it). */
function withKindState(env: KindEnv): { kindState?: unknown } {
  const state = env.kindState();
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

  constructor(private readonly deps: EpisodeManagerDeps) {
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
    const logPath = resolve(opts.logPath ?? join(this.trajectoriesDir, `${task.spec.task_id}-${stamp(new Date())}-${id}.jsonl`));
    mkdirSync(dirname(logPath), { recursive: true });
    // A start that fails leaves no new log and no live episode (#18).
    const fresh = !existsSync(logPath);
    const discard = (): void => {
      if (fresh) rmSync(logPath, { force: true });
    };
    const { env, obs } = await mainKind(task).reset(task, {
      grader: await this.grader(),
      images: this.deps.images ?? envImages,
      // Interactive play answers first and grades after (the grade is never shown anyway).
      deferHiddenGrades: this.grades,
      log: logPath,
      protocol,
      player,
      protocolOptions: options,
      ...(opts.gradeEachStep === false ? { gradeEachStep: false } : {}),
      ...(this.deps.version ? { version: this.deps.version } : {}),
    }).catch((error: unknown) => {
      discard();
      throw error;
    });
    const entry: Live = { id, env, task, protocol, player, logPath, first: obs, history: [], options, queue: Promise.resolve() };
    let snapshot: EpisodeSnapshot;
    try {
      snapshot = this.snapshot(entry);
    } catch (error) {
      env.close();
      discard();
      throw error;
    }
    this.live.set(id, entry);
    return snapshot;
  }

  /** Continues an episode from its log (which must lie under the lab home folder). */
  async resume(log: string): Promise<EpisodeSnapshot> {
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
      images: this.deps.images ?? envImages,
      // Interactive play answers first and grades after (the grade is never shown anyway).
      deferHiddenGrades: this.grades,
      resumeFrom: { path, trajectory: traj },
      protocol: header.protocol,
      player: header.player,
      ...(this.deps.version ? { version: this.deps.version } : {}),
    });
    const id = randomBytes(6).toString('hex');
    const history: EpisodeEntry[] = env.resumed().map((s) => ({ step: s.step, tool: s.tool, args: s.args, text: s.text, error: !s.info.ok, ms: s.ms }));
    const entry: Live = { id, env, task, protocol: header.protocol, player: header.player, logPath: path, first: obs, history, options, queue: Promise.resolve() };
    this.live.set(id, entry);
    return this.snapshot(entry);
  }

  step(episodeId: string, call: { tool: string; args?: unknown }): Promise<EpisodeStepResult> {
    const e = this.get(episodeId);
    const run = e.queue.then(() => this.stepNow(e, call));
    e.queue = run.catch(() => undefined);
    return run;
  }

  private async stepNow(e: Live, call: { tool: string; args?: unknown }): Promise<EpisodeStepResult> {
    const t0 = Date.now();
    const out = await e.env.step({ tool: call.tool, args: call.args ?? {} });
    const info = out.info;
    const error = !info.ok;
    const image = out.image ? pngDataUrl(out.image) : undefined;
    if (info.step !== null) {
      e.history.push({ step: info.step, tool: call.tool, args: call.args ?? {}, text: out.text, error, ms: Date.now() - t0, ...(image ? { image } : {}) });
    }
    return {
      step: info.step ?? e.env.currentInfo().step ?? 0,
      nextId: info.nextId,
      text: out.text,
      error,
      done: out.done,
      info,
      budgets: e.env.publicBudgets(),
      scene: publicScene(e.env.state()),
      ...(image ? { image } : {}),
      ...withKindState(e.env),
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
  finalGrade(episodeId: string): EnvGradeResult | null {
    return this.get(episodeId).env.finalGrade();
  }

  close(episodeId: string): boolean {
    const e = this.live.get(episodeId);
    if (!e) return false;
    this.live.delete(episodeId);
    const closing = e.env.close();
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
    return true;
  }

  /** Resolves when every closed episode's log is complete and closed (pending grades written). */
  async idle(): Promise<void> {
    while (this.closing.size) await Promise.all([...this.closing]);
  }

  closeAll(): void {
    for (const id of [...this.live.keys()]) this.close(id);
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
      scene: publicScene(e.env.state()),
      nextId: e.env.nextId,
      referenceViews: e.env.publicViews(),
      ...withKindState(e.env),
      done: e.env.done,
      history: e.history,
      options: { ...e.options },
    };
  }
}
