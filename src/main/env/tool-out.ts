// What every kind's environment hands back and takes (docs/ARCHITECTURE.md "Kinds"): the result of
// one call (ToolOut), the options an environment is opened with, and the summary of a call a resume
// replayed. Kind-neutral: SplatBench's environment (src/main/kinds/splatbench/env.ts) and the calls-only
// environments of the other kinds share these shapes.
// Invariant: a ToolOut carries no held-out metric; hiddenOf's result goes to the log only.
import type { StepInfo } from '../../shared/env/step-info';
import type { GradeQueue } from '../workers/grade-queue';
import type { LogFileOpener } from './log-file';
import type { HiddenMetrics, StepRecord, Trajectory, TrajectoryHeader } from './trajectory';
import type { EnvGradeResult, EnvGrader } from './types';

export interface ToolOut {
  text: string;
  image?: Uint8Array; // PNG
  done: boolean;
  info: StepInfo;
  /** The stored result of an earlier call with the same request id (nothing was charged now). */
  recalled?: boolean;
}

/** A log to continue: its path and, when the caller has read it already, its parsed content. */
export interface ResumeSource {
  path: string;
  trajectory?: Trajectory;
}

/** What every kind's environment is opened with (the lab's resources besides: src/main/kinds/kind.ts KindEnvOptions). */
export interface EnvOptions {
  grader: EnvGrader;
  log?: string; // JSONL path; with resumeFrom and no log, the resumed file is continued
  protocol?: 'matched' | 'free' | 'agent';
  player?: string;
  /** Recorded in the header as `protocol_options` (which aids the player had). */
  protocolOptions?: Record<string, boolean | undefined>;
  resumeFrom?: string | ResumeSource;
  /** Skip the hidden grade after each edit (the final grade still runs). */
  gradeEachStep?: boolean;
  /**
   * Grade after the answer (docs/ARCHITECTURE.md): the step record is written and the call
   * answered at once; the grade runs in this queue (the lab context's) and lands in a `hidden` record.
   * The end record waits for every pending grade, so the final score is exact.
   */
  deferHiddenGrades?: GradeQueue;
  /**
   * With deferHiddenGrades: an edit made while the episode's last grade still waits in the queue
   * replaces that grade's scene (the latest scene is graded, under its step) instead of queuing
   * another, so a fast player's backlog stays one grade per episode (the agent doors: MCP, RL).
   * The steps skipped this way have no `hidden` record; the final grade is always exact.
   */
  coalesceHiddenGrades?: boolean;
  version?: string;
  /** Header fields of a live episode: its id (kept across a restart) and its active-time limit. */
  headerExtra?: Pick<TrajectoryHeader, 'episode' | 'time_limit_s' | 'seed' | 'caps'>;
  /** The file under the log writer (tests inject faults here; default the real file). */
  logFile?: LogFileOpener;
}

/** One call a resume replayed: the logged record's public part and its replayed outcome. */
export interface ReplayedSummary {
  step: number;
  tool: string;
  args: unknown;
  text: string;
  ms: number;
  info: StepInfo;
  /** The client's request id, when the call carried one. */
  requestId?: string;
}

/** The stored result of a logged call (a resume): its text and replayed outcome, no image. */
export function loggedResult(s: ReplayedSummary): ToolOut {
  return { text: s.text, done: s.info.done, info: s.info };
}

/** Summary of a replayed record (resume), with its request id when it has one. */
export function replayedSummary(record: StepRecord, info: StepInfo): ReplayedSummary {
  return { step: record.step, tool: record.tool, args: record.args, text: record.text, ms: record.ms, info, ...(record.request_id === undefined ? {} : { requestId: record.request_id }) };
}

export function hiddenOf(g: EnvGradeResult): HiddenMetrics {
  return { score: g.score, psnr: g.psnr, ssim: g.ssim, iou: g.iou, lpips: g.lpips };
}
