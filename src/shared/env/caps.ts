// Per-episode caps (docs/AGENTS.md "Caps"): limits on cost, tokens, model messages, tool-call
// messages and wall time that end an episode as truncated (Gymnasium's sense) rather than by the
// task. The eval runner meters all of them; MCP and RL sessions meter messages and wall time
// (they see no tokens). One schema for the config file, the CLI flags and the RL reset body.
// Inputs: the caps and the usage so far. Output: the first cap reached, or null.
// Invariant: a cap is checked between calls only, so a call is never cut in half.
import { z } from 'zod';

export const EpisodeCapsSchema = z.strictObject({
  max_cost_usd: z.number().positive().optional().describe('US dollars of model API cost (from the price table)'),
  max_tokens: z.number().int().positive().optional().describe('model tokens, input plus output, over the episode'),
  max_messages: z.number().int().positive().optional().describe('messages from the player: model turns (eval) or tool-call requests (MCP, RL)'),
  max_wall_s: z.number().positive().optional().describe('wall-clock seconds since the episode started (this attempt)'),
});
export type EpisodeCaps = z.infer<typeof EpisodeCapsSchema>;
export type CapName = keyof EpisodeCaps;

export const CAP_NAMES: readonly CapName[] = ['max_cost_usd', 'max_tokens', 'max_messages', 'max_wall_s'];

export interface CapUsage {
  cost_usd?: number | null;
  tokens?: number;
  messages?: number;
  wall_s?: number;
}

const USAGE_OF: Record<CapName, keyof CapUsage> = { max_cost_usd: 'cost_usd', max_tokens: 'tokens', max_messages: 'messages', max_wall_s: 'wall_s' };

/** The first cap the usage has reached (>=), or null; a usage the caller cannot meter never trips a cap. */
export function capReached(caps: EpisodeCaps | undefined, usage: CapUsage): CapName | null {
  if (!caps) return null;
  for (const name of CAP_NAMES) {
    const limit = caps[name];
    const used = usage[USAGE_OF[name]];
    if (limit !== undefined && typeof used === 'number' && used >= limit) return name;
  }
  return null;
}

/** The text a player gets when a cap ends the episode. */
export function capText(cap: CapName, caps: EpisodeCaps): string {
  return `The episode was cut short: the ${cap} cap (${caps[cap]}) was reached. It ended as truncated; what was done so far is graded as it stands.`;
}

export function hasCaps(caps: EpisodeCaps | undefined): caps is EpisodeCaps {
  return caps !== undefined && CAP_NAMES.some((n) => caps[n] !== undefined);
}
