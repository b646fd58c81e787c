// The shared half of the live episodes of kinds that count only calls (search, relation; docs/DESIGN.md
// section 13): no Gaussians, no renders, no reference views; calls run one at a time through a
// queue, time records land in order with them, and the log's header names the kind and its call
// budget. Each kind's env extends this with its own reset, step and end record.
// Inputs: the kind's pure rules, its call budget and the KindEnvOptions. Outputs: the KindEnv
// members every such kind answers the same way. Invariant: a call, a time record and close() never
// interleave: each waits for the one before it; a call whose record could not be written is rolled
// back (the rules rebuilt from the written calls), and a call with a known request id is answered
// from the ledger (docs/SECURITY.md, "Exactly-once calls").
import type { EpisodeBudgets } from '../../shared/api/episode';
import type { CapName } from '../../shared/env/caps';
import type { ToolCall } from '../../shared/env/step';
import type { BudgetState } from '../../shared/env/format';
import type { StepInfo } from '../../shared/env/step-info';
import type { TimeRecord } from '../../shared/env/trajectory-schema';
import { loggedResult, type ReplayedSummary, type ToolOut } from '../env/tool-out';
import { RequestLedger } from '../env/ledger';
import type { TrajectoryHeader, TrajectoryWriter } from '../env/trajectory';
import { callsOnlyBudgets, type KindEnv, type KindEnvOptions, type KindGrade } from './kind';

/** What the shared half needs of a kind's pure rules. */
export interface CallsOnlyRules {
  readonly done: boolean;
  step(call: ToolCall): unknown;
  budgets(): BudgetState;
  /** The step info of the episode as it stands (no call made). */
  standing(): StepInfo;
  /** Ends the episode at a per-episode cap. */
  truncate(): void;
  footer(): string;
}

export abstract class CallsOnlyEnv<R extends CallsOnlyRules> implements KindEnv {
  protected writer: TrajectoryWriter | null = null;
  protected final: KindGrade | null = null;
  /** The calls of a resumed log, as the fresh rules replayed them. */
  protected replayed: ReplayedSummary[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly ledger = new RequestLedger();
  /** Every charged call whose record is written, in order (a rollback replays them). */
  private readonly calls: ToolCall[] = [];

  protected constructor(
    protected rules: R,
    private readonly maxCalls: number,
    protected readonly opts: KindEnvOptions,
  ) {}

  get done(): boolean {
    return this.rules.done;
  }
  budgets(): BudgetState {
    return this.rules.budgets();
  }
  publicBudgets(): EpisodeBudgets {
    return callsOnlyBudgets(this.rules.budgets().callsLeft, this.maxCalls);
  }
  abstract kindState(): unknown;
  currentInfo(): StepInfo {
    return this.rules.standing();
  }
  footer(): string {
    return this.rules.footer();
  }
  resumed(): readonly ReplayedSummary[] {
    return this.replayed;
  }
  finalGrade(): KindGrade | null {
    return this.final;
  }

  step(call: ToolCall, requestId?: string): Promise<ToolOut> {
    return this.ledger.run(requestId, () =>
      this.serial(async () => {
        try {
          return await this.stepNow(call, requestId);
        } catch (error) {
          this.rollBack();
          throw error;
        }
      }),
    );
  }

  recall(requestId: string): Promise<ToolOut> | null {
    return this.ledger.recall(requestId);
  }

  /** A call's record is on disk: it is charged from now on (stepNow calls this right after). */
  protected written(call: ToolCall): void {
    this.calls.push({ tool: call.tool, args: call.args });
  }

  /** A resumed log's calls: replayed into the rules by the kind, remembered here. */
  protected resumedCall(summary: ReplayedSummary): void {
    this.replayed.push(summary);
    this.calls.push({ tool: summary.tool, args: summary.args });
    if (summary.requestId !== undefined) this.ledger.remember(summary.requestId, loggedResult(summary));
  }

  /** Fresh rules of the task (no call made), for a rollback. */
  protected abstract freshRules(): R;

  /** Back to the state of the log's last whole record: the failed call is not charged. */
  private rollBack(): void {
    const rules = this.freshRules();
    for (const c of this.calls) rules.step(c);
    this.rules = rules;
  }

  truncate(cap: CapName, text: string): Promise<ToolOut> {
    return this.serial(async () => {
      if (!this.rules.done) {
        this.rules.truncate();
        await this.finish({ cap });
      }
      return { text: `${text}\n${this.rules.footer()}`, done: true, info: this.rules.standing() };
    });
  }

  /** Appends a time record (pause, resume, reload...) after the calls before it. */
  mark(record: TimeRecord): Promise<void> {
    return this.serial(async () => this.writer?.append(record));
  }

  async close(): Promise<void> {
    await this.queue;
    this.writer?.close();
    this.writer = null;
  }

  /** Writes the end record (with the cap that ended it, if one did) and keeps the final grade. */
  protected abstract finish(extra?: { cap: CapName }): void | Promise<void>;

  /**
   * One call of the kind: its record (with `request_id` when given) is appended before the
   * promise settles, then written(call) is called; a rejection before that rolls the call back.
   */
  protected abstract stepNow(call: ToolCall, requestId: string | undefined): Promise<ToolOut>;

  /** The log's header: who plays, under which protocol, and the call budget of the kind. */
  protected header(taskId: string, kind: string, started: Date): TrajectoryHeader {
    return {
      type: 'header', task: taskId, protocol: this.opts.protocol ?? 'agent', player: this.opts.player ?? 'unknown',
      ...(this.opts.protocolOptions ? { protocol_options: { ...this.opts.protocolOptions } } : {}),
      versions: { splatlab: this.opts.version ?? '0.1.0', format: 1, node: process.version },
      started: started.toISOString(), kind, budgets: { max_tool_calls: this.maxCalls },
      ...this.opts.headerExtra,
    };
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
