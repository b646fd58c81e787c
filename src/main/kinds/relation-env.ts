// The live episode of a relation task (docs/RELATION.md): shows each trial's image (rendered
// from its hidden parameters file) with its question, takes one `answer` per trial, scores the
// answers against the hidden labels, tells a practice player whether each answer was right, and
// writes the trajectory (header, step 0 = the first trial, one record per call, the end record
// with every trial's truth, answer, reaction time and confidence).
// Inputs: a loaded RelationTask, KindEnvOptions. Outputs: ToolOut (text + PNG), the final grade.
// Invariant: the truth reaches the player only as practice feedback; scored trials reveal
// nothing until the end record, which stays main-side.
import { RelationRules, type RelationKindState, type RelationTrialResult } from '../../shared/kinds/relation';
import type { CapName } from '../../shared/env/caps';
import type { ToolCall } from '../../shared/env/episode';
import { endingOf } from '../../shared/env/step-info';
import type { ToolOut } from '../env/env';
import { readTrajectory, TrajectoryWriter, type StepRecord } from '../env/trajectory';
import type { EnvGradeResult } from '../env/types';
import { CallsOnlyEnv } from './calls-only-env';
import type { KindEnvOptions } from './kind';
import type { RelationTask } from './relation';

export class RelationEnv extends CallsOnlyEnv<RelationRules> {
  private feedback: string | null = null;
  /** When the current trial's image went out (server side reaction time for models). */
  private shownAt = Date.now();
  private rts: (number | null)[] = [];

  private constructor(readonly task: RelationTask, rules: RelationRules, opts: KindEnvOptions) {
    super(rules, rules.maxCalls, opts);
  }

  static async reset(task: RelationTask, options: KindEnvOptions): Promise<{ env: RelationEnv; obs: ToolOut }> {
    const env = new RelationEnv(task, new RelationRules(task.spec), options);
    if (options.resumeFrom) return env.resume(options);
    const text = env.rules.firstObservation();
    const t0 = new Date();
    if (options.log) env.writer = TrajectoryWriter.create(options.log, env.header(task.spec.task_id, 'relation', t0));
    env.writer?.write({ step: 0, tool: 'reset', args: {}, text, t: t0.toISOString(), ms: 0 });
    env.shownAt = Date.now();
    return { env, obs: { text, image: task.image(0), done: false, info: env.currentInfo() } };
  }

  /** Continues a log: its answers are replayed into fresh rules, the file is appended to. */
  private async resume(options: KindEnvOptions): Promise<{ env: RelationEnv; obs: ToolOut }> {
    const source = typeof options.resumeFrom === 'string' ? { path: options.resumeFrom } : options.resumeFrom!;
    const log = source.trajectory ?? readTrajectory(source.path);
    for (const rec of log.steps.filter((s) => s.step > 0)) {
      const result = this.rules.step({ tool: rec.tool, args: rec.args });
      if (result.ok && rec.tool === 'answer') this.rts.push(rtOf(rec.args) ?? rec.ms);
      this.replayed.push({ step: rec.step, tool: rec.tool, args: rec.args, text: rec.text, ms: rec.ms, info: result.info });
    }
    this.writer = TrajectoryWriter.resume(options.log ?? source.path, log.validBytes);
    if (this.rules.done && !log.end) this.finish();
    if (this.rules.done) this.final = this.grade();
    this.shownAt = Date.now();
    const index = Math.min(this.rules.current, this.task.spec.trials.length - 1);
    const text = this.rules.done ? `The episode is over.\n${this.rules.footer()}` : `${this.rules.questionText(index)}\n${this.rules.footer()}`;
    return { env: this, obs: { text, image: this.task.image(index), done: this.rules.done, info: this.currentInfo() } };
  }

  kindState(): RelationKindState {
    const n = this.task.spec.trials.length;
    const index = Math.min(this.rules.current, n - 1);
    return {
      trial: index + 1, trials: n, practice: this.task.spec.practice,
      question: this.task.spec.trials[index].question, feedback: this.feedback, done: this.rules.done,
    };
  }

  protected async stepNow(call: ToolCall): Promise<ToolOut> {
    const t0 = Date.now();
    const before = this.rules.current;
    const result = this.rules.step(call);
    if (!result.charged) return { text: `${result.body}\n${result.footer}`, done: true, info: result.info };
    const answeredNow = this.rules.current > before;
    let body = result.body;
    this.feedback = null;
    if (answeredNow) {
      this.rts.push(rtOf(call.args) ?? t0 - this.shownAt);
      if (this.task.spec.practice) {
        const truth = this.task.params[before].relation.label;
        const given = this.rules.answers()[before].relation;
        this.feedback = given === truth ? `Trial ${before + 1}: correct, ${truth}.` : `Trial ${before + 1}: not quite, the answer was ${truth} (you said ${given}).`;
        body = `${this.feedback}\n${body}`;
      }
    }
    const text = `${body}\n${result.footer}`;
    const record: StepRecord & { trial?: number } = {
      step: result.info.step ?? this.rules.stepCount, tool: result.tool, args: jsonSafe(call?.args ?? {}), text,
      t: new Date(t0).toISOString(), ms: Date.now() - t0, ok: result.ok,
    };
    if (answeredNow) record.trial = before + 1;
    if (result.done) record.done = true;
    await this.writer?.append(record);
    if (result.done) {
      this.finish();
      this.final = this.grade();
    }
    const out: ToolOut = { text, done: result.done, info: result.info };
    if (answeredNow && !result.done) {
      out.image = this.task.image(this.rules.current);
      this.shownAt = Date.now();
    }
    return out;
  }

  /** Every trial with its truth and the answer given (null: not answered). */
  trialResults(): RelationTrialResult[] {
    const answers = this.rules.answers();
    return this.task.spec.trials.map((t, i) => {
      const truth = this.task.params[i].relation.label;
      const a = answers[i];
      return {
        trial: i + 1, environment: t.environment, triple: t.triple, task: t.perspective, truth,
        answer: a?.relation ?? null, correct: a?.relation === truth, rt_ms: this.rts[i] ?? null, confidence: a?.confidence ?? null,
      };
    });
  }

  private grade(): EnvGradeResult {
    const results = this.trialResults();
    const accuracy = results.filter((r) => r.correct).length / results.length;
    const score = 100 * accuracy;
    return { score, psnr: 0, ssim: 0, lpips: null, iou: 0, reward: accuracy, trainingReward: (score + 50) / 150, lpipsMissing: false };
  }

  protected finish(extra?: { cap: CapName }): void {
    const g = this.grade();
    this.final = g;
    this.writer?.write({
      type: 'end', reason: this.rules.endReason ?? 'calls', score: g.score, reward: g.reward, training_reward: g.trainingReward,
      calls_used: this.rules.stepCount, practice: this.task.spec.practice, trials: this.trialResults(), accuracy: g.reward,
      ending: endingOf(this.rules.standing().endReason) ?? 'truncated', ...extra,
      t: new Date().toISOString(),
    });
  }

}

function rtOf(args: unknown): number | null {
  const v = (args as { rt_ms?: unknown } | null)?.rt_ms;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

function jsonSafe(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v ?? {})) as unknown;
}
