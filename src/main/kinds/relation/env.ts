// The live episode of a relation task (docs/RELATION.md): shows each trial's image (rendered
// from its hidden parameters file) with its question, takes one `answer` per trial, scores the
// answers against the hidden labels, tells a practice player whether each answer was right, and
// writes the trajectory (header, step 0 = the first trial and a block's per-participant trial
// order, one record per call with the server's receipt time, the end record with every trial's
// truth, answer, reaction time, server time and confidence). A block's trials are played in the
// order trialOrder gives for the player (src/shared/kinds/relation/task.ts); a resumed log keeps
// the order its step 0 recorded and is replayed by the one replay (src/shared/kinds/replay.ts,
// strict), so a log whose logged text its replay does not give is refused.
// Inputs: a loaded RelationTask, KindEnvOptions. Outputs: ToolOut (text + PNG), the final grade.
// Invariant: the truth reaches the player only as practice feedback; scored trials reveal
// nothing until the end record, which stays main-side.
import { RelationRules, type RelationKindState, type RelationTrialResult } from '../../../shared/kinds/relation/kind';
import type { RelationParams } from '../../../shared/kinds/relation/params';
import { trialOrder } from '../../../shared/kinds/relation/task';
import { replaySteps } from '../../../shared/kinds/replay';
import type { ToolCall } from '../../../shared/env/step';
import { replayedSummary, type ToolOut } from '../../env/tool-out';
import { readTrajectory, TrajectoryWriter, type StepRecord } from '../../env/trajectory';
import { CallsOnlyEnv } from '../calls-only-env';
import type { KindEnvOptions, KindGrade } from '../kind';
import type { RelationTask } from './load';
import { localTrialRenderer, poolTrialRenderer, type TrialRenderer } from './trial-image';
import type { CapName } from '../../../shared/env/caps';
import type { TimeRecord } from '../../../shared/env/trajectory-schema';
import { endingOf } from '../../../shared/env/step-info';

/**
 * The task as a player sees it: trials, parameters and images in `order` (a block's
 * per-participant order, src/shared/kinds/relation/task.ts trialOrder); the identity returns it.
 */
export function orderedTask(task: RelationTask, order: readonly number[]): RelationTask {
  if (order.every((v, i) => v === i)) return task;
  return {
    spec: { ...task.spec, trials: order.map((i) => task.spec.trials[i]) }, dir: task.dir,
    params: order.map((i) => task.params[i]),
    image: (i, render) => task.image(order[i], render),
  };
}

export class RelationEnv extends CallsOnlyEnv<RelationRules> {
  private feedback: string | null = null;
  /** When the current trial's image went out (server side reaction time for models). */
  private shownAt = Date.now();
  private rts: (number | null)[] = [];
  private serverMs: (number | null)[] = [];
  /** Paused and down time since the current image went out (a block's break, a lost page): out of its server time. */
  private stoppedMs = 0;
  private pausedAt: number | null = null;
  /** Where trial images are drawn: the lab's worker pool (issue 38 item 1), else this thread. */
  private readonly render: TrialRenderer;

  private constructor(readonly task: RelationTask, rules: RelationRules, opts: KindEnvOptions) {
    super(rules, rules.maxCalls, opts);
    this.render = opts.pool ? poolTrialRenderer(opts.pool) : localTrialRenderer;
  }

  /** The PNG of trial i of this episode's order. */
  private image(i: number): Promise<Uint8Array> {
    return this.task.image(i, this.render);
  }

  static async reset(base: RelationTask, options: KindEnvOptions): Promise<{ env: RelationEnv; obs: ToolOut }> {
    if (options.resumeFrom) {
      const source = typeof options.resumeFrom === 'string' ? { path: options.resumeFrom } : options.resumeFrom;
      const log = source.trajectory ?? readTrajectory(source.path);
      const order = recordedOrder(log.steps.find((x) => x.step === 0)?.args, base.spec.trials.length);
      const task = orderedTask(base, order);
      return new RelationEnv(task, new RelationRules(task.spec), options).resume(options, log);
    }
    const order = trialOrder(base.spec, options.player ?? '');
    const task = orderedTask(base, order);
    const env = new RelationEnv(task, new RelationRules(task.spec), options);
    const text = env.rules.firstObservation();
    // Drawn before the log is started: a render that fails leaves no log behind.
    const image = await env.image(0);
    const t0 = new Date();
    if (options.log) env.writer = await TrajectoryWriter.start(options.log, env.header(task.spec.task_id, 'relation', t0), { step: 0, tool: 'reset', args: base.spec.block?.order_seed == null ? {} : { order }, text, t: t0.toISOString(), ms: 0 }, options.logFile);
    env.shownAt = Date.now();
    return { env, obs: { text, image, done: false, info: env.currentInfo() } };
  }

  /** Continues a log: its answers are replayed into fresh rules, the file is appended to. */
  private async resume(options: KindEnvOptions, log: ReturnType<typeof readTrajectory>): Promise<{ env: RelationEnv; obs: ToolOut }> {
    const source = typeof options.resumeFrom === 'string' ? { path: options.resumeFrom } : options.resumeFrom!;
    let before = this.rules.current;
    for (const { record: rec, result } of replaySteps(this.rules, log.steps, { strict: true, source: source.path })) {
      if (this.rules.current > before) {
        this.rts.push(rtOf(rec.args) ?? rec.ms);
        const sm = (rec as { server_ms?: unknown }).server_ms;
        this.serverMs.push(typeof sm === 'number' ? sm : null);
      }
      this.resumedCall(replayedSummary(rec, result.info));
      before = this.rules.current;
    }
    this.writer = await TrajectoryWriter.resumeAsync(options.log ?? source.path, log.validBytes, options.logFile);
    if (this.rules.done && !log.end) await this.finish();
    if (this.rules.done) this.final = this.grade();
    const index = Math.min(this.rules.current, this.task.spec.trials.length - 1);
    const text = this.rules.done ? `The episode is over.\n${this.rules.footer()}` : `${this.rules.questionText(index)}\n${this.rules.footer()}`;
    const image = await this.image(index);
    this.shownAt = Date.now();
    return { env: this, obs: { text, image, done: this.rules.done, info: this.currentInfo() } };
  }

  /** Keeps the paused and down time since the current image went out, then logs the record. */
  override mark(record: TimeRecord): Promise<void> {
    const t = Date.parse(record.t);
    if (Number.isFinite(t)) {
      if (record.event === 'pause' && this.pausedAt === null) this.pausedAt = t;
      else if (record.event === 'resume' && this.pausedAt !== null) {
        this.stoppedMs += Math.max(0, t - Math.max(this.pausedAt, this.shownAt));
        this.pausedAt = null;
      } else if ((record.event === 'reconnect' || record.event === 'restart') && record.since) {
        const since = Date.parse(record.since);
        if (Number.isFinite(since)) this.stoppedMs += Math.max(0, t - Math.max(since, this.shownAt));
      }
    }
    return super.mark(record);
  }

  kindState(): RelationKindState {
    const n = this.task.spec.trials.length;
    const index = Math.min(this.rules.current, n - 1);
    const b = this.task.spec.block;
    return {
      trial: index + 1, trials: n, practice: this.task.spec.practice,
      question: this.task.spec.trials[index].question, feedback: this.feedback, done: this.rules.done,
      observer: this.task.params[index].observer,
      image_px: imageSize(this.task.params[index]),
      ...(b ? { block: { fixation_ms: b.fixation_ms, deadline_ms: b.deadline_ms, break_every: b.break_every, confidence: b.confidence, display_px: b.display_px } } : {}),
    };
  }

  protected freshRules(): RelationRules {
    return new RelationRules(this.task.spec);
  }

  protected async stepNow(call: ToolCall, requestId: string | undefined): Promise<ToolOut> {
    const t0 = Date.now();
    const before = this.rules.current;
    const result = this.rules.step(call);
    if (!result.charged) return { text: `${result.body}\n${result.footer}`, done: true, info: result.info };
    const answeredNow = this.rules.current > before;
    let body = result.body;
    let feedback: string | null = null;
    // The trial's server time as the person spent it: a break (paused) or a lost page (down) is not in it.
    const serverMs = Math.max(0, t0 - this.shownAt - this.stoppedMs - (this.pausedAt !== null ? t0 - Math.max(this.pausedAt, this.shownAt) : 0));
    if (answeredNow && this.task.spec.practice) {
      const truth = this.truthOf(before);
      const a = this.rules.answers()[before];
      const given = a.relation ?? (a.timed_out ? 'nothing in time' : 'no answer we could read');
      feedback = a.relation === truth ? `Trial ${before + 1}: correct, ${truth}.` : `Trial ${before + 1}: not quite, the answer was ${truth} (you said ${given}).`;
      body = `${feedback}\n${body}`;
    }
    const text = `${body}\n${result.footer}`;
    const record: StepRecord & { trial?: number } = {
      step: result.info.step ?? this.rules.stepCount, tool: result.tool, args: jsonSafe(call?.args ?? {}), text,
      t: new Date(t0).toISOString(), ms: Date.now() - t0, ok: result.ok, ...(requestId === undefined ? {} : { request_id: requestId }),
    };
    if (answeredNow) Object.assign(record, { trial: before + 1, server_ms: serverMs });
    if (result.done) record.done = true;
    // The next trial's image before the record: a render that fails charges nothing (rolled back).
    const next = answeredNow && !result.done ? await this.image(this.rules.current) : undefined;
    await this.writer?.append(record);
    // Written: charged from here on (a failure before this point rolls the call back).
    this.written(call);
    this.feedback = feedback;
    if (answeredNow) {
      this.rts.push(rtOf(call.args) ?? serverMs);
      this.serverMs.push(serverMs);
    }
    if (result.done) {
      this.final = this.grade();
      // An end record that cannot be written now is written by the next resume (the step says done).
      await this.finish().catch(() => undefined);
    }
    const out: ToolOut = { text, done: result.done, info: result.info };
    if (next) {
      out.image = next;
      this.shownAt = Date.now();
      this.stoppedMs = 0;
    }
    return out;
  }

  /** The truth of trial i: its label, or an attention check's instructed answer. */
  private truthOf(i: number): RelationTrialResult['truth'] {
    return this.task.spec.trials[i].catch ?? this.task.params[i].relation.label;
  }

  /** Every trial with its truth and the answer given (null: not answered). */
  trialResults(): RelationTrialResult[] {
    const answers = this.rules.answers();
    return this.task.spec.trials.map((t, i) => {
      const truth = this.truthOf(i);
      const a = answers[i];
      return {
        trial: i + 1, environment: t.environment, triple: t.triple, task: t.perspective, truth,
        answer: a?.relation ?? null, correct: a?.relation === truth, rt_ms: this.rts[i] ?? null, confidence: a?.confidence ?? null,
        server_ms: this.serverMs[i] ?? null, params: t.params,
        ...(t.catch ? { catch: true } : {}), ...(a?.timed_out ? { timed_out: true } : {}), ...(a?.unparsed !== undefined ? { unparsed: a.unparsed } : {}),
      };
    });
  }

  private grade(): KindGrade {
    const all = this.trialResults();
    // Attention checks are not scored trials (unless a task is nothing else).
    const results = all.some((r) => !r.catch) ? all.filter((r) => !r.catch) : all;
    const accuracy = results.filter((r) => r.correct).length / results.length;
    const score = 100 * accuracy;
    return { score, reward: accuracy, trainingReward: (score + 50) / 150 };
  }

  /** The end record, written and flushed off the event loop (after the records before it). */
  protected async finish(extra?: { cap: CapName }): Promise<void> {
    const g = this.grade();
    this.final = g;
    await this.writer?.append({
      type: 'end', reason: this.rules.endReason ?? 'calls', score: g.score, reward: g.reward, training_reward: g.trainingReward,
      calls_used: this.rules.stepCount, practice: this.task.spec.practice, trials: this.trialResults(), accuracy: g.reward,
      unparsed: this.rules.answers().filter((a) => a.unparsed !== undefined).length,
      ending: endingOf(this.rules.standing().endReason) ?? 'truncated', ...extra,
      t: new Date().toISOString(),
    });
  }

}

/** A trial image's own size: an imported image's, else the rendered camera's. */
function imageSize(p: RelationParams): [number, number] {
  return p.stimulus ? [p.stimulus.width, p.stimulus.height] : [p.camera.intrinsics.width, p.camera.intrinsics.height];
}

/** The trial order a log's step 0 recorded, or the file's order (a log without one). */
function recordedOrder(args: unknown, n: number): number[] {
  const order = (args as { order?: unknown } | undefined)?.order;
  const identity = Array.from({ length: n }, (_, i) => i);
  if (!Array.isArray(order) || order.length !== n) return identity;
  const seen = new Set(order);
  return seen.size === n && order.every((i) => Number.isInteger(i) && i >= 0 && i < n) ? (order as number[]) : identity;
}

function rtOf(args: unknown): number | null {
  const v = (args as { rt_ms?: unknown } | null)?.rt_ms;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

function jsonSafe(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v ?? {})) as unknown;
}
