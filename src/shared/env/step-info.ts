// The structured outcome of one environment step (docs/DESIGN.md, "Structured steps"): what the
// call did, as data, beside the text a model reads. Every consumer (episode manager, resume,
// replay, results, the UI, the agent harness) reads this, never the text.
// Invariant: `step` is the 1-based number of the charged call (null for a call refused after the
// end, which cost nothing); `ids` are the Gaussians the call created, in order.
import { z } from 'zod';

/** submit: the player ended it (the task ended); auto: the call budget ran out; cap: a per-episode cap (cost, tokens, messages, wall time) ended it. */
export const EndReasonSchema = z.enum(['submit', 'auto', 'cap']);
export type EndReason = z.infer<typeof EndReasonSchema>;

/** Gymnasium's two ends: the task ended (terminated) or a limit cut it short (truncated). */
export const EndingSchema = z.enum(['terminated', 'truncated']);
export type Ending = z.infer<typeof EndingSchema>;

/** How an end reason ends the episode: submit terminates; the call budget and the caps truncate. */
export function endingOf(reason: EndReason | null): Ending | null {
  if (reason === null) return null;
  return reason === 'submit' ? 'terminated' : 'truncated';
}

/**
 * Why a call came out as it did (the one error model, docs/AGENTS.md "Outcomes"): `ok` it did
 * what it asked; the rest were refused (nothing changed, the call was still charged unless the
 * episode was over), except `failed` (the lab could not carry out a valid call).
 */
export const OUTCOME_CODES = ['ok', 'no_tool_name', 'unknown_tool', 'invalid_json', 'invalid_args', 'rejected', 'no_renders', 'episode_over', 'failed'] as const;
export const OutcomeCodeSchema = z.enum(OUTCOME_CODES);
export type OutcomeCode = z.infer<typeof OutcomeCodeSchema>;

export const StepOutcomeSchema = z.strictObject({
  status: z.enum(['ok', 'refused', 'failed']).describe('ok: done as asked; refused: the environment declined it (nothing changed); failed: the lab could not carry it out'),
  code: OutcomeCodeSchema,
});
export type StepOutcome = z.infer<typeof StepOutcomeSchema>;

export function outcomeOf(code: OutcomeCode): StepOutcome {
  return { status: code === 'ok' ? 'ok' : code === 'failed' ? 'failed' : 'refused', code };
}

export const StepBudgetsSchema = z.strictObject({
  // SplatBench's scene and render budgets: a kind without a scene or renders leaves them out.
  gaussians: z.number().int().optional(),
  maxGaussians: z.number().int().optional(),
  callsLeft: z.number().int(),
  rendersLeft: z.number().int().optional(),
});

export const StepInfoSchema = z.strictObject({
  tool: z.string().describe('the tool name as sent (or <type> when it was not a string)'),
  ok: z.boolean().describe('the call was valid and did what it asked'),
  charged: z.boolean().describe('false only for a call after the end (it cost nothing)'),
  step: z.number().int().positive().nullable().describe('number of the charged call, 1-based'),
  changed: z.boolean().optional().describe('the scene (SplatBench) or the view (search) changed; absent for a kind whose calls change neither'),
  ids: z.array(z.number().int().nonnegative()).optional().describe('ids of the Gaussians the call created (SplatBench; absent for a kind without a scene)'),
  done: z.boolean(),
  endReason: EndReasonSchema.nullable(),
  ending: EndingSchema.nullable().describe('null while the episode runs; then terminated (submit, stop, all answered) or truncated (budget or cap)'),
  outcome: StepOutcomeSchema,
  nextId: z.number().int().nonnegative().optional().describe('id the next added Gaussian will get (SplatBench; absent for a kind without a scene)'),
  budgets: StepBudgetsSchema,
});
export type StepInfo = z.infer<typeof StepInfoSchema>;
