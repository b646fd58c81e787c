// zod schemas of trajectory log records (docs/DESIGN.md section 6): the header line, one record per
// call, and the closing record. They are the single source of truth: the TypeScript types, the
// reader's validation and the generated docs/API.md all come from here.
// Invariant: records are loose objects, so a newer writer's extra fields survive a read.
import { z } from 'zod';
import { CompactGaussianSchema } from '../scene/input';

export const TRAJECTORY_FORMAT = 1;

export const TrajectoryHeaderSchema = z.looseObject({
  type: z.literal('header'),
  task: z.string().describe('task id'),
  protocol: z.enum(['matched', 'free', 'agent']).describe('matched/free: a person in the lab; agent: a model or script'),
  player: z.string().describe('pseudonymous participant id or model name'),
  protocol_options: z.record(z.string(), z.boolean().optional()).optional().describe('aids the player had (e.g. outline_overlay), as the study or play form set them'),
  versions: z.looseObject({ splatlab: z.string().optional(), format: z.number().optional(), node: z.string().optional() }).describe('what wrote the log (always written; optional when read)'),
  started: z.string().describe('ISO time'),
  kind: z.string().optional(),
  budgets: z.object({ max_gaussians: z.number().optional(), max_tool_calls: z.number(), max_renders: z.number().optional() }).optional(),
  episode: z.string().optional().describe('the live episode id at the start; a resume after a restart keeps it, so an open page finds its episode again'),
  time_limit_s: z.number().positive().optional().describe('active seconds the player had (a study option); at the limit the next call submits'),
  seed: z.number().int().nonnegative().optional().describe("the episode's seed (from --seed or the RL reset): every random choice of its player derives from it"),
  caps: z.record(z.string(), z.number()).optional().describe('per-episode caps in force (max_cost_usd, max_tokens, max_messages, max_wall_s)'),
});
export type TrajectoryHeader = z.infer<typeof TrajectoryHeaderSchema>;

export const HiddenMetricsSchema = z
  .object({ score: z.number(), psnr: z.number(), ssim: z.number(), iou: z.number(), lpips: z.number().nullable() })
  .describe('held-out metrics after the call; never shown to the player');
export type HiddenMetrics = z.infer<typeof HiddenMetricsSchema>;

export const StepRecordSchema = z.looseObject({
  step: z.number().int().nonnegative().describe('0 = the reset observation, then one per charged call'),
  tool: z.string(),
  args: z.unknown(),
  text: z.string().describe('what the player saw, ending in the budget footer'),
  t: z.string().describe('ISO time the call arrived'),
  ms: z.number().describe('wall time of the call, grading excluded'),
  ok: z.boolean().optional().describe('false when the call was refused (it still cost a call); written since format 1.1, replay recovers it for older logs'),
  hidden: HiddenMetricsSchema.optional(),
  state: z.array(CompactGaussianSchema).optional().describe('the full scene after every call that changed it'),
  done: z.boolean().optional(),
  request_id: z.string().optional().describe("the client's request id of the call, when it sent one: a retry with it is answered from this record, never charged again (docs/SECURITY.md)"),
});
export type StepRecord = z.infer<typeof StepRecordSchema>;

export const HiddenRecordSchema = z
  .looseObject({
    type: z.literal('hidden'),
    step: z.number().int().nonnegative().describe('the step whose scene was graded (0 = the reset scene)'),
    hidden: HiddenMetricsSchema,
  })
  .describe("a deferred hidden grade, written after its step's record; readers merge it into that step's `hidden`");
export type HiddenRecord = z.infer<typeof HiddenRecordSchema>;

export const EndRecordSchema = z.looseObject({
  type: z.literal('end'),
  reason: z.string().describe("why it ended: SplatBench 'submit' or 'auto' (budget spent); other kinds name theirs (docs/TASKS.md)"),
  score: z.number().describe('the hidden score, 0-100 (every kind)'),
  reward: z.number().describe('clip(score / 100, 0, 1)'),
  training_reward: z.number().describe('clip((score + 50) / 150, 0, 1)'),
  psnr: z.number().optional().describe('SplatBench: held-out PSNR (always written by SplatBench)'),
  ssim: z.number().optional().describe('SplatBench: held-out SSIM'),
  iou: z.number().optional().describe('SplatBench: held-out silhouette IoU'),
  lpips: z.number().nullable().optional().describe('SplatBench: held-out LPIPS (null when the weights are missing)'),
  lpips_missing: z.boolean().optional().describe('SplatBench: LPIPS weights were missing'),
  calls_used: z.number(),
  ending: z.enum(['terminated', 'truncated']).optional().describe('terminated: the task ended (submit, stop, every trial answered, give_up); truncated: the call budget or a cap cut it short'),
  cap: z.enum(['max_cost_usd', 'max_tokens', 'max_messages', 'max_wall_s']).optional().describe("the per-episode cap that ended it (reason 'cap')"),
  renders_used: z.number().optional().describe('SplatBench: renders used'),
  gaussians: z.number().optional().describe('SplatBench: Gaussians in the final scene'),
  t: z.string(),
});
export type EndRecord = z.infer<typeof EndRecordSchema>;

/** What a time record marks; see src/shared/env/time.ts for how each one counts. */
export const TIME_EVENTS = ['pause', 'resume', 'reload', 'disconnect', 'reconnect', 'restart', 'hidden', 'visible', 'time_limit', 'heartbeat'] as const;
export const TimeEventSchema = z.enum(TIME_EVENTS);
export type TimeEvent = z.infer<typeof TimeEventSchema>;

export const TimeRecordSchema = z
  .looseObject({
    type: z.literal('time'),
    event: TimeEventSchema.describe(
      'pause/resume: the player paused; disconnect/reconnect: no page held the episode; restart: the lab came back after a crash; hidden/visible: the window was hidden; reload: the page reloaded; time_limit: the active-time limit was reached; heartbeat: the page reported the send and paint times of calls (beats without calls are not logged)',
    ),
    t: z.string().describe('ISO time it happened (as the lab process saw it)'),
    since: z.string().optional().describe('restart and disconnect: the last sign of life before the loss (a heartbeat, a call); the lab counts since..t as down time'),
    step: z.number().int().nonnegative().optional().describe('the last logged step at that moment'),
    client_t: z.string().optional().describe("heartbeat: the page's clock when it sent the beat (ISO), for the offset between the two clocks"),
    calls: z
      .array(z.strictObject({ step: z.number().int().nonnegative(), sent: z.string(), shown: z.string() }))
      .optional()
      .describe("heartbeat: calls whose result the page has shown since the last beat: when the page sent each and when it first painted the answer (the page's clock, ISO)"),
  })
  .describe('an interruption or a change of attention (optional: older logs have none, and all their time counts as active)');
export type TimeRecord = z.infer<typeof TimeRecordSchema>;
