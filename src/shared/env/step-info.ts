// The structured outcome of one environment step (docs/DESIGN.md, "Structured steps"): what the
// call did, as data, beside the text a model reads. Every consumer (episode manager, resume,
// replay, results, the UI, the agent harness) reads this, never the text.
// Invariant: `step` is the 1-based number of the charged call (null for a call refused after the
// end, which cost nothing); `ids` are the Gaussians the call created, in order.
import { z } from 'zod';

export const EndReasonSchema = z.enum(['submit', 'auto']);
export type EndReason = z.infer<typeof EndReasonSchema>;

export const StepBudgetsSchema = z.strictObject({
  gaussians: z.number().int(),
  maxGaussians: z.number().int(),
  callsLeft: z.number().int(),
  rendersLeft: z.number().int(),
});

export const StepInfoSchema = z.strictObject({
  tool: z.string().describe('the tool name as sent (or <type> when it was not a string)'),
  ok: z.boolean().describe('the call was valid and did what it asked'),
  charged: z.boolean().describe('false only for a call after the end (it cost nothing)'),
  step: z.number().int().positive().nullable().describe('number of the charged call, 1-based'),
  changed: z.boolean().describe('the scene changed'),
  ids: z.array(z.number().int().nonnegative()).describe('ids of the Gaussians the call created'),
  done: z.boolean(),
  endReason: EndReasonSchema.nullable(),
  nextId: z.number().int().nonnegative().describe('id the next added Gaussian will get'),
  budgets: StepBudgetsSchema,
});
export type StepInfo = z.infer<typeof StepInfoSchema>;
