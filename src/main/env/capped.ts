// Per-episode caps on a live episode (docs/AGENTS.md "Caps"), written once for every door (eval,
// MCP, RL): a meter of the player's messages, wall time and (for model runners) tokens and cost,
// and the one step that checks the caps around a call and truncates the episode when one is hit.
// Inputs: the caps (src/shared/env/caps.ts), a KindEnv, tool calls, usage the caller meters.
// Output: the call's ToolOut, ended as truncated (info.ending, info.endReason 'cap') at a cap.
// Invariant: caps are checked between calls, never inside one; a call that reaches a cap keeps its
// own outcome, and the truncation's text follows its text, ending with the footer.
import { capReached, capText, type CapName, type CapUsage, type EpisodeCaps } from '../../shared/env/caps';
import type { ToolCall } from '../../shared/env/step';
import type { ToolOut } from './tool-out';
import { errorText } from '../../shared/env/outcome';
import { outcomeOf, type StepInfo } from '../../shared/env/step-info';

/** What capped stepping needs of a live episode (every KindEnv has it). */
export interface TruncatableEnv {
  readonly done: boolean;
  step(call: ToolCall, requestId?: string): Promise<ToolOut>;
  truncate(cap: CapName, text: string): Promise<ToolOut>;
  /** Where the episode stands and its footer, for the answer to a call the lab failed (KindEnv has both). */
  currentInfo?(): StepInfo;
  footer?(): string;
}

export class CapMeter {
  messages = 0;
  private readonly started: number;

  constructor(readonly caps: EpisodeCaps | undefined, private readonly now: () => number = Date.now) {
    this.started = now();
  }

  /** The first cap reached by the usage so far plus what the caller meters itself (tokens, cost). */
  reached(extra: Pick<CapUsage, 'tokens' | 'cost_usd'> = {}): CapName | null {
    return capReached(this.caps, { ...extra, messages: this.messages, wall_s: (this.now() - this.started) / 1000 });
  }

  /** Ends the episode at a cap with the one cap text. */
  truncate(env: TruncatableEnv, cap: CapName): Promise<ToolOut> {
    return env.truncate(cap, capText(cap, this.caps ?? {}));
  }
}

/**
 * One call under caps: a cap already reached (the wall time) truncates instead of running the
 * call; a cap the call reaches (its message) truncates after it, in the same answer.
 */
export async function stepCapped(env: TruncatableEnv, call: ToolCall, meter: CapMeter, requestId?: string): Promise<ToolOut> {
  if (env.done) return env.step(call, requestId);
  const before = meter.reached();
  if (before) return meter.truncate(env, before);
  const out = await env.step(call, requestId).catch((e: unknown) => {
    if (!env.currentInfo || !env.footer) throw e;
    return failedOut(env.currentInfo(), typeof call?.tool === 'string' ? call.tool : 'the call', e, env.footer());
  });
  meter.messages += 1;
  const after = meter.reached();
  if (!after || out.done) return out;
  return mergeTruncation(out, await meter.truncate(env, after));
}

/**
 * The answer to a call the lab could not carry out (a render or a grade threw): the same one
 * error line, outcome `failed`, the episode as it stands; transports answer this, never a stack.
 */
export function failedOut(standing: StepInfo, tool: string, err: unknown, footer: string): ToolOut {
  const why = (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 300);
  return { text: `${errorText(`the lab could not carry out ${tool}: ${why}`)}\n${footer}`, done: standing.done, info: { ...standing, tool, ok: false, outcome: outcomeOf('failed') } };
}

/** A call's answer followed by the truncation that came right after it. */
export function mergeTruncation(out: ToolOut, cut: ToolOut): ToolOut {
  const merged: ToolOut = {
    text: `${out.text}\n${cut.text}`,
    done: true,
    info: { ...out.info, done: true, endReason: cut.info.endReason, ending: cut.info.ending, budgets: cut.info.budgets },
  };
  if (out.image) merged.image = out.image;
  return merged;
}
