// The task-kind interface, main half (docs/DESIGN.md section 13, "Task kinds as modules"): how a
// kind loads its tasks, summarises them publicly, runs a live episode (hidden grader,
// observations, the trajectory log) and gives its pure rules for replay, next to its pure half
// (src/shared/kinds). The episode manager, studies, replay, MCP and the eval harness use only
// this interface and the registry in ./registry.ts.
// Invariant: hidden data (held-out views, anchors, answers, grades) leave a KindEnv only through
// finalGrade(), which no player-facing row calls; publicViews(), publicBudgets() and
// kindState() carry only what the player may see.
import type { EpisodeBudgets, PublicView } from '../../shared/api/episode';
import type { KindRules } from '../../shared/kinds/kind';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import type { BudgetState } from '../../shared/env/format';
import type { StepInfo } from '../../shared/env/step-info';
import type { ToolCall } from '../../shared/env/step';
import type { CapName } from '../../shared/env/caps';
import type { TimeRecord } from '../../shared/env/trajectory-schema';
import type { TaskSpecHead, TaskSummary } from '../../shared/task/schema';
import type { AsyncViewRenderer } from '../../shared/raster/types';
import type { EnvOptions, ReplayedSummary, ToolOut } from '../env/tool-out';
import type { Trajectory } from '../env/trajectory';
import type { Grader } from '../grader/grader';
import type { EnvGrader } from '../env/types';
import type { LoadOptions } from '../tasks/load';
import type { PngEncoder } from '../workers/png';
import type { WorkerPool } from '../workers/pool';

/** A loaded task of any kind: its spec (the kind's whole file) and the folder of its data. */
export interface KindTask {
  readonly spec: TaskSpecHead;
  readonly dir: string;
}

/** Options of a live episode (the log, the player, the grader and its queue), for every kind. */
export type KindEnvOptions = EnvOptions & {
  /**
   * The lab's renderer of observation views (src/main/raster/views.ts: the worker pool or a GPU),
   * for kinds that render one per step (search); default the same image on the calling thread.
   */
  viewRenderer?: AsyncViewRenderer;
  /** Where observation PNGs are encoded (the lab: its pool, src/main/workers/png.ts); default this thread. */
  encodePng?: PngEncoder;
  /**
   * The lab's worker pool, for a kind's own jobs (src/main/kinds/jobs.ts: relation's trial images);
   * absent (the CLI, tests) a kind does that work on the calling thread.
   */
  pool?: WorkerPool;
};

/**
 * What every kind's final grade says (docs/DESIGN.md section 13): its score, in its module's
 * `score.unit`, and the rewards of the RL protocol. SplatBench's grade adds its image metrics
 * (src/main/env/types.ts EnvGradeResult); no other kind writes them.
 */
export interface KindGrade {
  score: number;
  reward: number;
  trainingReward: number;
}

/** A live episode of any kind, as the manager drives it: only what every kind has, the Gaussian scene optional. */
export interface KindEnv {
  readonly done: boolean;
  /**
   * One call; with a request id at most once (a retry gets the stored result, marked recalled, and
   * charges nothing). Rejects with nothing charged when its record cannot be written.
   */
  step(call: ToolCall, requestId?: string): Promise<ToolOut>;
  /** The result of the call sent with `requestId` (awaited while it runs), or null: never received. */
  recall(requestId: string): Promise<ToolOut> | null;
  /** The Gaussian scene and the id the next added Gaussian gets (SplatBench); absent for a kind without one. */
  scene?(): { records: GaussianRecord[]; nextId: number };
  budgets(): BudgetState;
  /** The budgets as the player sees them (counters of the play view). */
  publicBudgets(): EpisodeBudgets;
  /** The reference views a player may look at (SplatBench's); absent: none. */
  publicViews?(): PublicView[];
  /** The kind's own public state for its play view (JSON); absent or undefined: none (SplatBench). */
  kindState?(): unknown;
  currentInfo(): StepInfo;
  /** The budget footer as the episode stands (every result text ends with it). */
  footer(): string;
  resumed(): readonly ReplayedSummary[];
  finalGrade(): KindGrade | null;
  /**
   * Ends the episode at a per-episode cap (src/shared/env/caps.ts), after the calls before it: the
   * end record says reason 'cap', which cap, and ending 'truncated'; the answer's text is `text`
   * with the footer. An episode already over is left as it is.
   */
  truncate(cap: CapName, text: string): Promise<ToolOut>;
  /** Appends a time record after the calls before it (src/shared/env/time.ts). */
  mark(record: TimeRecord): Promise<void>;
  /** Resolves once the log is complete (pending grades written) and closed. */
  close(): Promise<void>;
}

/** The player's budgets of a kind that counts only calls: SplatBench's Gaussians and renders are absent, not zero. */
export function callsOnlyBudgets(callsLeft: number, maxCalls: number): EpisodeBudgets {
  return { callsLeft, maxToolCalls: maxCalls };
}

/**
 * One episode log handed to a kind's part of `splatlab report` (src/main/cli/commands/report.ts):
 * its player group (participants, or the model with its settings) and bootstrap cluster.
 */
export interface KindReportLog {
  readonly path: string;
  readonly kind: 'human' | 'model';
  readonly group: string;
  readonly cluster: string;
  readonly practice: boolean;
}

/** A kind's own part of a report: its metrics (report.json) and their CSV tables, each naming its unit and n. */
export interface KindReport {
  readonly family: string;
  /** Episodes of this kind the metrics count (finished, not practice). */
  readonly episodes: number;
  readonly metrics: unknown;
  readonly tables: readonly { readonly id: string; readonly title: string; readonly csv: string }[];
}

/** What a kind's own conformance checks found (`splatlab check`, src/main/episodes/conformance.ts). */
export interface KindConformance {
  problems: string[];
  notes: string[];
}

export interface MainKindModule {
  readonly family: string;
  /** Loads a task from its spec head (the module validates the whole file with its schema); `opts.readViews` decodes photos. */
  load(tasksDir: string, head: TaskSpecHead, opts?: LoadOptions): Promise<KindTask>;
  /** The public summary of a task file for lists (no hidden data). */
  summary(tasksDir: string, head: TaskSpecHead): TaskSummary;
  /** Files whose change means the task must be reloaded (besides the spec). */
  dataFiles(tasksDir: string, head: TaskSpecHead): string[];
  reset(task: KindTask, options: KindEnvOptions): Promise<{ env: KindEnv; obs: ToolOut }>;
  /** A fresh pure episode of a loaded task (for replay, regrading, results). */
  rules(task: KindTask): KindRules;
  /**
   * Its runs are graded by the lab's grader from the replayed scene (SplatBench): a study's model
   * runs are verified that way (src/main/study/verify.ts). Absent: scored from the log's calls.
   */
  readonly sceneGraded?: true;
  /**
   * The kind's own conformance checks, after the contract every kind's episode is checked against
   * (src/main/episodes/conformance.ts); absent: that contract only. SplatBench: its spec budgets,
   * photos, first observation and anchors (src/main/kinds/splatbench/conformance.ts).
   */
  conformance?(task: KindTask, grader: EnvGrader): Promise<KindConformance>;
  /** Frees what the lab's grader holds for a task leaving the repository (SplatBench: its photos on the device). */
  unload?(task: KindTask, grader: Grader): void;
  /** The views Results' replay can draw a step's scene in (SplatBench: the held-out views); none when absent. */
  replayViews?(task: KindTask): string[];
  /**
   * A kind whose runs are regraded from their logged calls rather than from a scene (search):
   * checks an imported model log (one line when it does not regrade) and gives the lab's score.
   * Without it a model import is regraded by the grader from the replayed scene (SplatBench).
   */
  importRun?(traj: Trajectory, tasksDir: string, taskId: string): Promise<{ score: number }>;
  /** The lab's score of an imported run's log for Results, from the logged calls and the task only (null: no score). */
  runScore?(traj: Trajectory, tasksDir: string, taskId: string): number | null;
  /**
   * The kind's own analyses for `splatlab report`: it picks the logs of its tasks out of `logs`
   * (others are not its own) and returns its metrics, or null when none is its own. SplatBench's
   * are the shared analyses (src/shared/analysis/report.ts) and need no member.
   */
  report?(logs: readonly KindReportLog[], tasksDir: string): Promise<KindReport | null>;
}
