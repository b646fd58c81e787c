// SplatEnv: the Node-side episode. Wraps the pure Episode (budgets, validation, the end) with
// rendering, hidden grading and the trajectory log.
// Inputs: a LoadedTask, a grader, tool calls. Outputs: ToolOut {text, image?, done, info}, where
// info (src/shared/env/step-info.ts) carries the outcome as data for every consumer.
// Invariants: held-out metrics go to the log and finalGrade() only, never into a ToolOut; calls
// are handled one at a time in arrival order; every completed call is on disk before step()
// resolves, and a call whose record could not be written is rolled back (nothing charged);
// a call with a known request id is answered from the ledger, never run twice; resuming from a
// log rebuilds scene, ids, budgets and the ledger exactly.
import type { EpisodeBudgets, PublicView } from '../../../shared/api/episode';
import { publicBudgets, publicViews } from './public';
import { copyFile } from 'node:fs/promises';
import { orbitCamera } from '../../../shared/camera/orbit';
import { splatbenchKind } from '../../../shared/kinds/registry';
import { Episode } from '../../../shared/kinds/splatbench/episode';
import type { ToolCall } from '../../../shared/env/step';
import type { EpisodeConfig, ImageRequest, SplatStepResult } from '../../../shared/kinds/splatbench/episode';
import type { SplatBudgetState } from '../../../shared/kinds/splatbench/format';
import { shortNum } from '../../../shared/math/format';
import { describeView } from '../../../shared/kinds/splatbench/ops-inspect';
import { packRecords, toCompactRecord, type GaussianRecord } from '../../../shared/scene/records';
import { endingOf, type StepInfo } from '../../../shared/env/step-info';
import type { CapName } from '../../../shared/env/caps';
import type { LoadedTask } from '../../tasks/load';
import { envImages, type EnvImages } from './images';
import { poolImages } from './images-pool';
import { RequestLedger } from '../../env/ledger';
import { replayInto, resumeNote } from './resume';
import { readTrajectory, TrajectoryWriter, type EndRecord, type StepRecord, type TimeRecord, type TrajectoryHeader } from '../../env/trajectory';
import type { EnvGradeResult } from '../../env/types';
import type { GradeOptions } from '../../grader/types';
import { hiddenOf, loggedResult, replayedSummary, type ReplayedSummary, type ToolOut } from '../../env/tool-out';
import type { KindEnvOptions } from '../kind';

export function episodeConfig(task: LoadedTask): EpisodeConfig {
  return splatbenchKind.config(task.spec, task.reference);
}

/** JSON-safe copy of call arguments for the log (non-JSON values become what JSON makes of them). */
function jsonSafe(value: unknown): unknown {
  try {
    const s = JSON.stringify(value);
    return s === undefined ? null : (JSON.parse(s) as unknown);
  } catch {
    return String(value);
  }
}

/**
 * What SplatEnv is opened with: every kind's options and SplatBench's image builders (default: on
 * the lab's pool when the options carry one, else on the calling thread; tests pass cheap fakes).
 */
export type SplatEnvOptions = KindEnvOptions & { images?: EnvImages };

/** The episode's image builders (SplatEnvOptions.images). */
const imagesOf = (o: SplatEnvOptions): EnvImages => o.images ?? (o.pool ? poolImages(o.pool) : envImages);

export class SplatEnv {
  private writer: TrajectoryWriter | null = null;
  private lastGrade: EnvGradeResult | null = null;
  private final: EnvGradeResult | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private resumedSteps: ReplayedSummary[] = [];
  private grades: Promise<void> = Promise.resolve();
  /** The scene of the episode's queued grade not yet started (coalesceHiddenGrades), else null. */
  private waitingGrade: { step: number; splats: ReturnType<typeof packRecords> } | null = null;
  private closing: Promise<void> | null = null;
  private views: PublicView[] | undefined;
  private readonly ledger = new RequestLedger();
  /** Every charged call so far, in order: a failed write rebuilds the episode from them. */
  private readonly calls: ToolCall[] = [];
  /** An end record whose write failed: close() and a resume write it. */
  private endRecord: EndRecord | null = null;

  private constructor(
    readonly task: LoadedTask,
    private episode: Episode,
    private readonly opts: SplatEnvOptions,
  ) {}

  static async reset(task: LoadedTask, options: SplatEnvOptions): Promise<{ env: SplatEnv; obs: ToolOut }> {
    const episode = new Episode(episodeConfig(task), task.init);
    const env = new SplatEnv(task, episode, options);
    const images = imagesOf(options);
    const [image, views] = await Promise.all([images.referenceSheet(task), images.publicViews?.(task)]);
    env.views = views;
    if (options.resumeFrom) {
      const source = typeof options.resumeFrom === 'string' ? { path: options.resumeFrom } : options.resumeFrom;
      const resumed = replayInto(episode, task, source.trajectory ?? readTrajectory(source.path), source.path);
      env.resumedSteps = resumed.replayed.map(({ record, result }) => replayedSummary(record, result.info));
      for (const { record } of resumed.replayed) env.calls.push({ tool: record.tool, args: record.args });
      for (const s of env.resumedSteps) if (s.requestId !== undefined) env.ledger.remember(s.requestId, loggedResult(s));
      env.lastGrade = null;
      const logPath = options.log ?? source.path;
      if (logPath !== source.path) await copyFile(source.path, logPath);
      env.writer = await TrajectoryWriter.resumeAsync(logPath, resumed.validBytes, options.logFile);
      if (episode.done && !resumed.ended) await env.finish();
      if (episode.done) env.final = env.final ?? (await env.gradeNow());
      return { env, obs: { text: resumeNote(episode, resumed.steps), image, done: episode.done, info: env.currentInfo() } };
    }
    const text = episode.firstObservation();
    const t0 = Date.now();
    const record: StepRecord = { step: 0, tool: 'reset', args: {}, text, t: new Date(t0).toISOString(), ms: Date.now() - t0 };
    if (episode.records().length) record.state = episode.records().map(toCompactRecord);
    if (options.gradeEachStep !== false && !options.deferHiddenGrades) record.hidden = hiddenOf(await env.gradeNow());
    // The log is created only once the reset has succeeded: a failed start writes nothing.
    if (options.log) env.writer = await TrajectoryWriter.start(options.log, env.header(new Date(t0)), record, options.logFile);
    if (options.gradeEachStep !== false && options.deferHiddenGrades) env.deferGrade(0);
    return { env, obs: { text, image, done: false, info: env.currentInfo() } };
  }

  /** The calls a resume replayed (as logged, each with its replayed StepInfo). */
  resumed(): readonly ReplayedSummary[] {
    return this.resumedSteps;
  }

  /** Where the episode stands, as a StepInfo of no call (step = calls charged so far). */
  currentInfo(): StepInfo {
    return this.episode.standing();
  }

  footer(): string {
    return this.episode.footer();
  }

  /** Id the next added Gaussian will get (ids are never reused). */
  get nextId(): number {
    return this.episode.nextId;
  }

  get done(): boolean {
    return this.episode.done;
  }

  /** The scene and the next id as the manager shows them (KindEnv.scene). */
  scene(): { records: GaussianRecord[]; nextId: number } {
    return { records: this.state(), nextId: this.nextId };
  }

  state(): GaussianRecord[] {
    return this.episode.records().map((r) => ({ ...r, pos: [...r.pos], scale: [...r.scale], quat: [...r.quat], color: [...r.color] }));
  }

  budgets(): SplatBudgetState {
    return this.episode.budgets();
  }

  publicBudgets(): EpisodeBudgets {
    return publicBudgets(this.episode.budgets(), this.task);
  }

  publicViews(): PublicView[] {
    return (this.views ??= publicViews(this.task));
  }

  /** The held-out grade of the submitted scene (main side only; null before the end). */
  finalGrade(): EnvGradeResult | null {
    return this.final;
  }

  /** Benchmark reward clip(score / 100, 0, 1); null before the end. */
  getReward(): number | null {
    return this.final ? this.final.reward : null;
  }

  /**
   * One call, after the calls before it. With a request id it runs at most once: a retry (while
   * it runs or after) gets the same result, charged once (docs/SECURITY.md, "Exactly-once calls").
   */
  step(call: ToolCall, requestId?: string): Promise<ToolOut> {
    return this.ledger.run(requestId, () => {
      const run = this.queue.then(() => this.stepNow(call, requestId));
      this.queue = run.catch(() => undefined);
      return run;
    });
  }

  /** The result of the call sent with `requestId` (awaited while it runs), or null: never run. */
  recall(requestId: string): Promise<ToolOut> | null {
    return this.ledger.recall(requestId);
  }

  /**
   * Closes the log once every deferred grade is in it (so closing right after a call loses no
   * hidden record), then frees the log for another writer. Resolves when the log is closed.
   */
  close(): Promise<void> {
    this.closing ??= this.grades.then(async () => {
      await this.writeEnd();
      // A write that failed (or was in flight for finish() and failed) gets one more try here.
      if (this.endRecord) await this.writeEnd();
      this.writer?.close();
      this.writer = null;
    });
    return this.closing;
  }

  private async stepNow(call: ToolCall, requestId: string | undefined): Promise<ToolOut> {
    const t0 = Date.now();
    const result = this.episode.step(call);
    if (!result.charged) return { text: `${result.body}\n${result.footer}`, done: true, info: result.info };
    let out: ToolOut;
    try {
      out = await this.record(call, requestId, result, t0);
    } catch (error) {
      // Nothing of the call reached the log (the writer cut back to the last whole record), so the
      // episode goes back to the state of that record: the call was not charged.
      this.rollBack();
      throw error;
    }
    // Written: from here on the call is charged, and a rebuild replays it.
    if (result.changed && this.opts.gradeEachStep !== false && this.opts.deferHiddenGrades) this.deferGrade(out.info.step ?? this.episode.stepCount);
    // The final grade and end record; one that fails is completed by close() or a resume (the
    // step record says done), so the charged call is still answered.
    if (result.done) await this.finish(result).catch(() => undefined);
    return out;
  }

  /** The episode as the log holds it: a fresh one with every written call replayed. */
  private rollBack(): void {
    const episode = new Episode(episodeConfig(this.task), this.task.init);
    for (const c of this.calls) episode.step(c);
    this.episode = episode;
    this.lastGrade = null;
  }

  /** Draws, grades (inline mode) and writes the call's record; resolves once it is on disk. */
  private async record(call: ToolCall, requestId: string | undefined, result: SplatStepResult, t0: number): Promise<ToolOut> {
    const drawn = result.image ? await this.draw(result.image) : { text: '', image: undefined };
    const body = [drawn.text, result.body].filter((s) => s.length > 0).join('\n');
    const text = body ? `${body}\n${result.footer}` : result.footer;
    const ms = Date.now() - t0;
    const step = result.info.step ?? this.episode.stepCount;
    const record: StepRecord = { step, tool: result.tool, args: jsonSafe(call?.args ?? {}), text, t: new Date(t0).toISOString(), ms, ok: result.ok, ...(requestId === undefined ? {} : { request_id: requestId }) };
    if (result.changed) {
      record.state = this.episode.records().map(toCompactRecord);
      this.lastGrade = null;
      if (this.opts.gradeEachStep !== false && !this.opts.deferHiddenGrades) record.hidden = hiddenOf(await this.gradeNow());
    }
    if (result.done) record.done = true;
    await this.writer?.append(record);
    this.calls.push({ tool: call?.tool, args: record.args });
    const out: ToolOut = { text, done: result.done, info: result.info };
    if (drawn.image) out.image = drawn.image;
    return out;
  }

  /** Ends the episode at a per-episode cap (after the calls before it): graded as it stands, truncated. */
  truncate(cap: CapName, text: string): Promise<ToolOut> {
    const run = this.queue.then(async () => {
      if (!this.episode.done) {
        this.episode.truncate();
        await this.finish(undefined, cap);
      }
      return { text: `${text}\n${this.episode.footer()}`, done: true, info: this.currentInfo() };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A time record (pause, interruption), in order with the calls; resolves once it is on disk. */
  mark(record: TimeRecord): Promise<void> {
    const run = this.queue.then(() => this.writer?.append(record));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Resolves when every deferred grade so far is in the log (tests, benchmarks, shutdown). */
  settled(): Promise<void> {
    return this.grades;
  }

  private deferGrade(step: number): void {
    const queue = this.opts.deferHiddenGrades;
    if (!queue) return;
    const scene = { step, splats: packRecords(this.episode.records()) };
    if (this.opts.coalesceHiddenGrades && this.waitingGrade) {
      Object.assign(this.waitingGrade, scene);
      return;
    }
    if (this.opts.coalesceHiddenGrades) this.waitingGrade = scene;
    // One `done` for every run of this grade: a preempted run's finished views are kept. The scene
    // is taken when the grade first starts (the latest one, when coalescing) and kept for reruns.
    const done: NonNullable<GradeOptions['done']> = [];
    let taken: { step: number; splats: ReturnType<typeof packRecords> } | undefined;
    const graded = queue.run((signal) => {
      if (!taken) {
        taken = { ...scene };
        if (this.waitingGrade === scene) this.waitingGrade = null;
      }
      return this.opts.grader.grade(this.task, taken.splats, { signal, background: true, done });
    });
    // A grade that fails leaves its step without `hidden` (the log stays valid and resumable).
    this.grades = this.grades.then(() => graded.then((g) => this.writer?.append({ type: 'hidden', step: taken!.step, hidden: hiddenOf(g) })).catch(() => undefined));
  }

  private async gradeNow(): Promise<EnvGradeResult> {
    this.lastGrade ??= await this.opts.grader.grade(this.task, packRecords(this.episode.records()));
    return this.lastGrade;
  }

  private async finish(result?: SplatStepResult, cap?: CapName): Promise<void> {
    // The end record waits for the step grades: they run now, not at the next idle moment.
    this.opts.deferHiddenGrades?.hurry();
    await this.grades;
    const g = await this.gradeNow();
    this.final = g;
    const usage = this.episode.usage;
    const reason = result?.endReason ?? this.episode.endReason ?? 'auto';
    this.endRecord = {
      type: 'end',
      reason,
      score: g.score,
      reward: g.reward,
      training_reward: g.trainingReward,
      psnr: g.psnr,
      ssim: g.ssim,
      iou: g.iou,
      lpips: g.lpips,
      lpips_missing: g.lpipsMissing,
      calls_used: usage.calls,
      renders_used: usage.renders,
      gaussians: this.episode.records().length,
      // After the fields older readers expect in order (reason, score, ...): how it ended.
      ending: endingOf(reason) ?? 'truncated',
      ...(cap ? { cap } : {}),
      t: new Date().toISOString(),
    };
    await this.writeEnd();
  }

  /**
   * Writes the pending end record. A failure leaves the log without it (the last step record is
   * whole and says done), which close() and a resume complete, so the call stays answered.
   * Written and flushed off the event loop (append: libuv's thread pool), as every step record.
   */
  private writeEnd(): Promise<void> {
    // One write at a time: finish() and close() may both ask while the first is in flight.
    this.endWrite ??= this.writeEndNow().finally(() => (this.endWrite = null));
    return this.endWrite;
  }

  private endWrite: Promise<void> | null = null;

  private async writeEndNow(): Promise<void> {
    const record = this.endRecord;
    if (!record || !this.writer) return;
    try {
      await this.writer.append(record);
      if (this.endRecord === record) this.endRecord = null;
    } catch {
      // kept for close() or the next resume
    }
  }

  private header(started: Date): TrajectoryHeader {
    const s = this.task.spec;
    return {
      type: 'header',
      task: s.task_id,
      protocol: this.opts.protocol ?? 'agent',
      player: this.opts.player ?? 'unknown',
      ...(this.opts.protocolOptions ? { protocol_options: { ...this.opts.protocolOptions } } : {}),
      versions: { splatlab: this.opts.version ?? '0.1.0', format: 1, node: process.version },
      started: started.toISOString(),
      kind: s.kind,
      budgets: { max_gaussians: s.max_gaussians, max_tool_calls: s.max_tool_calls, max_renders: s.max_renders },
      ...this.opts.headerExtra,
    };
  }

  private async draw(req: ImageRequest): Promise<{ text: string; image: Uint8Array | undefined }> {
    const images = imagesOf(this.opts);
    if (req.kind === 'references') return { text: '', image: await images.referenceSheet(this.task, req.views) };
    const splats = packRecords(this.episode.records(), req.groups);
    const only = req.groups ? `Rendered only group${req.groups.length > 1 ? 's' : ''} ${req.groups.map((g) => `'${g}'`).join(', ')}.\n` : '';
    if (req.kind === 'views') {
      const views = req.views.map((i) => this.task.reference[i]);
      const metrics = await this.opts.grader.compareViews(splats, views);
      const parts = metrics.map((m) => `${m.name}: PSNR ${m.psnr.toFixed(2)} dB, SSIM ${m.ssim.toFixed(3)}, silhouette IoU ${m.iou.toFixed(3)}`);
      const image = await images.renderViewsSheet(metrics.map((m, i) => ({ view: views[i], metrics: m })));
      return { text: `${only}Metrics on reference views: ${parts.join('; ')}`, image };
    }
    const ref = this.task.reference[0]?.camera;
    const camera = orbitCamera({ azimuth: req.azimuth, elevation: req.elevation, width: ref?.width ?? 256, height: ref?.height ?? 256 });
    const [render] = await this.opts.grader.renderViews(splats, [camera]);
    const label = `azimuth ${shortNum(req.azimuth, 1)}, elevation ${shortNum(req.elevation, 1)}`;
    const image = await images.renderAngleImage(render, label, camera);
    return { text: `${only}Rendered ${describeView({ name: 'the scene', azimuth: req.azimuth, elevation: req.elevation })} (no reference photo at this angle).`, image };
  }
}

