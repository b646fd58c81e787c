// The task-kind interface, main half (docs/DESIGN.md section 9, "Task kinds as modules"): a kind's
// environment over a loaded task (hidden grader, observations, the trajectory log), next to its
// pure half (src/shared/kinds). The episode manager, studies, replay and the agent harness use
// only this interface and the registry below.
// Invariant: hidden data (held-out views, anchors, grades) leave a KindEnv only through
// finalGrade(), which no player-facing row calls.
import type { KindRules } from '../../shared/kinds/kind';
import { kindModule } from '../../shared/kinds/registry';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import type { BudgetState } from '../../shared/env/format';
import type { StepInfo } from '../../shared/env/step-info';
import type { ToolCall } from '../../shared/env/episode';
import type { TimeRecord } from '../../shared/env/trajectory-schema';
import { SplatEnv, type ReplayedSummary, type SplatEnvOptions, type ToolOut } from '../env/env';
import type { EnvGradeResult } from '../env/types';
import type { LoadedTask } from '../tasks/load';

/** A live episode of any kind, as the manager drives it. */
export interface KindEnv {
  readonly done: boolean;
  readonly nextId: number;
  step(call: ToolCall): Promise<ToolOut>;
  state(): GaussianRecord[];
  budgets(): BudgetState;
  currentInfo(): StepInfo;
  resumed(): readonly ReplayedSummary[];
  finalGrade(): EnvGradeResult | null;
  /** Appends a time record after the calls before it (src/shared/env/time.ts). */
  mark(record: TimeRecord): Promise<void>;
  /** Resolves once the log is complete (pending grades written) and closed. */
  close(): Promise<void>;
}

export interface MainKindModule {
  readonly family: string;
  reset(task: LoadedTask, options: SplatEnvOptions): Promise<{ env: KindEnv; obs: ToolOut }>;
}

const splatbenchMain: MainKindModule = { family: 'splatbench', reset: (task, options) => SplatEnv.reset(task, options) };

const MAIN_KINDS: readonly MainKindModule[] = [splatbenchMain];

/** The main half of a task's kind. */
export function mainKind(task: LoadedTask): MainKindModule {
  const family = kindModule(task.spec.kind).family;
  const m = MAIN_KINDS.find((k) => k.family === family);
  if (!m) throw new Error(`no environment for task kind '${task.spec.kind}'`);
  return m;
}

/** A fresh pure episode of a loaded task (for replay, regrading, results). */
export function rulesFor(task: LoadedTask): KindRules {
  const kind = kindModule(task.spec.kind);
  return kind.rules(kind.config(task.spec, task.reference), task.init);
}
