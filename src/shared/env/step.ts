// One call and its result, as every kind's rules take and give them (docs/ARCHITECTURE.md "Kinds"):
// the call ({tool, args}) and the step result (charged, done, the outcome as data, body and footer).
// Kind-neutral: SplatBench's pure episode (src/shared/kinds/splatbench/episode.ts, with its own
// EpisodeConfig and its step result's image request) and the other kinds' rules share these shapes. Invariant: a step result's info is
// the outcome every consumer reads.
import type { EndReason, StepInfo } from './step-info';

export type { EndReason } from './step-info';

export interface StepResult {
  tool: string;
  /** False only for a call refused after the end (it cost nothing). */
  charged: boolean;
  /** The call was valid and did what it asked. */
  ok: boolean;
  /** The scene (SplatBench) or the view (search) changed; absent for a kind whose calls change neither. */
  changed?: boolean;
  done: boolean;
  endReason?: EndReason;
  /** The structured outcome (the same facts as above plus step, ids, budgets), for every consumer. */
  info: StepInfo;
  /** Result text without the footer; main puts an image tool's text in front of it. */
  body: string;
  footer: string;
}

export interface ToolCall {
  tool: unknown;
  args?: unknown;
}
