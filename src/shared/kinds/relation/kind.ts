// The `relation` task kind, shared half (docs/DESIGN.md sections 9 and 13; docs/RELATION.md):
// its spec schema (src/shared/kinds/relation/task.ts), the single `answer` tool, its trajectory fields
// and the pure episode: one answer per trial, trials in order, the end after the last one.
// Inputs: a relation task spec, tool calls. Outputs: StepResults, budgets, the public kind state.
// Invariant: the rules never see an answer's truth (it stays in main); a refused call still
// costs a call, and the calls budget (3 per trial) ends an episode whose player keeps failing.
import { z } from 'zod';
import type { StepResult, ToolCall } from '../../env/step';
import type { BudgetState } from '../../env/format';
import { decodeArgs, EPISODE_OVER, errorText, NAMELESS_TOOL, namelessRefusal, toolNameOf } from '../../env/outcome';
import { endingOf, outcomeOf, type EndReason, type OutcomeCode, type StepInfo } from '../../env/step-info';
import { EndRecordSchema, StepRecordSchema, TrajectoryHeaderSchema } from '../../env/trajectory-schema';
import { RELATION_CLASSES, RELATION_TASKS } from './labels';
import { normaliseAnswerArgs } from './answer-parse';
import { RelationTaskSpecSchema, type RelationTaskSpec } from './task';
import { toolSpecsOf, type KindRules, type TaskKindModule } from '../kind';

export const AnswerArgsSchema = z.strictObject({
  relation: z.enum(RELATION_CLASSES).optional().describe('where the target is relative to the reference, as the observer sees it'),
  give_up: z.literal(true).optional().describe('end the episode now; unanswered trials count as wrong'),
  confidence: z.number().int().min(1).max(3).optional().describe('optional: 1 = a guess, 2 = fairly sure, 3 = sure'),
  rt_ms: z.number().min(0).max(3_600_000).optional().describe('optional: reaction time measured by a person\'s screen, ms'),
  timed_out: z.literal(true).optional().describe('a person\'s screen: the trial\'s deadline passed without an answer (counts as wrong)'),
}).refine((a) => [a.relation !== undefined, a.give_up === true, a.timed_out === true].filter(Boolean).length === 1, 'give relation (front, back, left or right), or give_up: true, not both')
  .describe('Answer the current trial with one of front, back, left, right. The episode moves to the next trial (if any) and ends after the last.');
export type AnswerArgs = z.infer<typeof AnswerArgsSchema>;

const AnswerExtrasSchema = z.object({ confidence: z.number().int().min(1).max(3).optional(), rt_ms: z.number().min(0).max(3_600_000).optional() });

/** An answer as the episode keeps it: the arguments, or a text that names no class (kept as given). */
export type RecordedAnswer = AnswerArgs & { unparsed?: string };

/**
 * The answer a call records, read robustly (src/shared/kinds/relation/answer-parse.ts): the
 * parsed arguments, an unparseable text kept, or the first schema issue (a refused call).
 */
export function readAnswer(args: unknown): { ok: true; answer: RecordedAnswer } | { ok: false; error: string } {
  const n = normaliseAnswerArgs(args ?? {});
  if (n.kind === 'unparsed') {
    const extra = AnswerExtrasSchema.safeParse(n.rest);
    return { ok: true, answer: { ...(extra.success ? extra.data : {}), unparsed: n.raw } };
  }
  const parsed = AnswerArgsSchema.safeParse(n.args);
  if (parsed.success) return { ok: true, answer: parsed.data };
  const iss = parsed.error.issues[0];
  return { ok: false, error: `${iss.path.join('.') || 'arguments'}: ${iss.message}` };
}


export const RELATION_TOOLS = { answer: AnswerArgsSchema } as const;

/** Calls a player gets per trial (one answer and two refused calls). */
export const CALLS_PER_TRIAL = 3;

/** Public state of a relation episode, for its play view (`kindState`). */
export const RelationKindStateSchema = z.strictObject({
  trial: z.number().int().positive().describe('1-based number of the current (or last) trial'),
  trials: z.number().int().positive(),
  practice: z.boolean(),
  question: z.string(),
  /** Practice only: what the last answer was worth. */
  feedback: z.string().nullable(),
  done: z.boolean(),
  /** Whose view counts in the current trial (the diagram beside the image). */
  observer: z.enum(['camera', 'human']).optional(),
  /** A block's timing for a person's screen (src/shared/kinds/relation/task.ts, RelationBlockSchema). */
  block: z.strictObject({
    fixation_ms: z.number().int(), deadline_ms: z.number().int().nullable(), break_every: z.number().int(), confidence: z.boolean(),
    display_px: z.number().int().optional(),
  }).optional(),
  /** The current trial image's own size in pixels (width, height): the screen scales it to the block's display_px. */
  image_px: z.tuple([z.number().int(), z.number().int()]).optional(),
});
export type RelationKindState = z.infer<typeof RelationKindStateSchema>;

/** One answered trial as the end record lists it (main fills the truth); the API's row derives from it (./api.ts). */
export const RelationTrialResultSchema = z.strictObject({
  trial: z.number().int().positive(),
  environment: z.string(),
  triple: z.string(),
  task: z.enum(RELATION_TASKS),
  truth: z.enum(RELATION_CLASSES),
  answer: z.enum(RELATION_CLASSES).nullable(),
  correct: z.boolean(),
  /** The screen's reaction time when sent, else the time from the observation to the call. */
  rt_ms: z.number().nullable(),
  confidence: z.number().int().nullable(),
  /** Server side: ms from the trial's image leaving main to the answer's receipt. */
  server_ms: z.number().nullable().optional(),
  /** An attention check (its truth is the instructed answer), left out of accuracy. */
  catch: z.boolean().optional(),
  timed_out: z.boolean().optional(),
  /** A model's answer that names no class, as given. */
  unparsed: z.string().nullable().optional(),
  /** The trial's parameters file (its identity in a block shown in a per-participant order). */
  params: z.string().optional(),
});
export type RelationTrialResult = z.infer<typeof RelationTrialResultSchema>;

export const RelationEndSchema = EndRecordSchema.extend({
  reason: z.enum(['answered', 'calls', 'gave_up']).describe("relation: 'answered' (every trial answered), 'calls' (budget spent) or 'gave_up'"),
  practice: z.boolean(),
  trials: z.array(RelationTrialResultSchema),
  accuracy: z.number().describe('correct answers / trials'),
  unparsed: z.number().int().optional().describe('answers that named no class (kept as given, counted wrong)'),
});

export const RelationStepSchema = StepRecordSchema.extend({
  trial: z.number().int().positive().optional().describe('relation: the trial this call answered'),
  server_ms: z.number().optional().describe('relation: ms from the trial\'s image leaving main to this answer\'s receipt'),
});

/** `[trial 2/4 | calls left 7]` */
export function relationFooter(trial: number, trials: number, callsLeft: number): string {
  return `[trial ${trial}/${trials} | calls left ${callsLeft}]`;
}

/** Why a relation episode ended: every trial answered, the calls ran out, give_up, or a per-episode cap. */
export type RelationEnd = 'answered' | 'calls' | 'gave_up' | 'cap';

/** The common end reason of a relation end (a full set of answers or give_up is the player's submission). */
function commonEnd(end: RelationEnd): EndReason {
  return end === 'calls' ? 'auto' : end === 'cap' ? 'cap' : 'submit';
}

/** The pure episode of a relation task. */
export class RelationRules implements KindRules {
  private answered: RecordedAnswer[] = [];
  private calls = 0;
  private ended: RelationEnd | null = null;
  readonly maxCalls: number;

  constructor(readonly spec: RelationTaskSpec) {
    this.maxCalls = CALLS_PER_TRIAL * spec.trials.length;
  }

  get done(): boolean {
    return this.ended !== null;
  }

  get endReason(): RelationEnd | null {
    return this.ended;
  }

  get stepCount(): number {
    return this.calls;
  }

  /** 0-based index of the trial the next answer is for (trials.length once all are answered). */
  get current(): number {
    return this.answered.length;
  }

  answers(): readonly RecordedAnswer[] {
    return this.answered;
  }

  budgets(): BudgetState {
    return { callsLeft: this.maxCalls - this.calls };
  }

  footer(): string {
    const n = this.spec.trials.length;
    return relationFooter(Math.min(this.current + 1, n), n, this.maxCalls - this.calls);
  }

  questionText(index: number): string {
    const t = this.spec.trials[index];
    return `Trial ${index + 1} of ${this.spec.trials.length}${this.spec.practice ? ' (practice)' : ''}. ${t.question}`;
  }

  firstObservation(): string {
    return `${this.questionText(0)}\n${this.footer()}`;
  }

  standing(): StepInfo {
    return this.info('standing', true, false, this.calls > 0 ? this.calls : null, 'ok');
  }

  /** Ends the episode at a per-episode cap: unanswered trials count as wrong, the end is a truncation. */
  truncate(): void {
    this.ended ??= 'cap';
  }

  private info(tool: string, ok: boolean, charged: boolean, step: number | null, code: OutcomeCode): StepInfo {
    const b = this.budgets();
    const endReason = this.ended === null ? null : commonEnd(this.ended);
    return {
      tool, ok, charged, step, done: this.done,
      endReason, ending: endingOf(endReason), outcome: outcomeOf(code),
      budgets: { callsLeft: b.callsLeft },
    };
  }

  step(call: ToolCall): StepResult {
    const name = toolNameOf(call);
    const tool = name ?? NAMELESS_TOOL;
    if (this.done) {
      return { tool, charged: false, ok: false, done: true, info: this.info(tool, false, false, null, 'episode_over'), body: EPISODE_OVER, footer: this.footer() };
    }
    this.calls++;
    let body: string;
    let ok = false;
    let code: OutcomeCode = 'ok';
    const decoded = decodeArgs(call.args);
    if (name === null) {
      const r = namelessRefusal(['answer']);
      code = r.code;
      body = errorText(r.detail);
    } else if (tool !== 'answer') {
      code = 'unknown_tool';
      body = errorText(`unknown tool '${tool.slice(0, 40)}' (the only tool is answer)`);
    } else if (!decoded.ok) {
      code = decoded.code;
      body = errorText(`answer: ${decoded.detail}`);
    } else {
      const read = readAnswer(decoded.value);
      if (!read.ok) {
        code = 'invalid_args';
        body = errorText(`answer: ${read.error}`);
      } else if (read.answer.give_up) {
        ok = true;
        this.ended = 'gave_up';
        body = 'Gave up; the remaining trials count as wrong.';
      } else {
        ok = true;
        this.answered.push(read.answer);
        const a = read.answer;
        body = a.unparsed !== undefined ? `Could not read ${JSON.stringify(a.unparsed.slice(0, 80))} as front, back, left or right; kept as given (counts as wrong).`
          : a.timed_out ? 'No answer before the deadline.' : `Answered ${a.relation}.`;
        if (this.current === this.spec.trials.length) this.ended = 'answered';
      }
    }
    if (!this.done && this.calls >= this.maxCalls) this.ended = 'calls';
    if (!this.done && ok) body = `${body}\n${this.questionText(this.current)}`;
    const step = this.calls;
    return {
      tool, charged: true, ok, done: this.done,
      ...(this.ended ? { endReason: commonEnd(this.ended) } : {}),
      info: this.info(tool, ok, true, step, code), body, footer: this.footer(),
    };
  }
}

export const RELATION_SYSTEM_PROMPT = [
  'You are playing a spatial-relations benchmark built on 3D Gaussian splatting.',
  'Each trial shows one rendered picture of a scene and a question naming two objects and whose point of view to take (yours as the camera, or a person or object in the scene).',
  'Answer each trial with the answer tool: relation front, back, left or right, as that observer would see the target relative to the reference; confidence 1 to 3 is optional.',
  'After an answer the next trial\'s picture follows; the episode ends after the last trial, when the calls run out, or on answer with give_up (unanswered trials count as wrong).',
  'Every call costs one call from your budget, including invalid calls, and each result ends with the trial number and the calls left. Whether an answer was right is not shown.',
].join('\n');

export const RELATION_IDLE_REMINDER = 'Please continue by calling the answer tool with front, back, left or right for the current trial.';

export const relationKind: TaskKindModule = {
  family: 'relation',
  title: 'Spatial relations',
  summary: 'Say where one object is relative to another, from the camera\'s or another viewpoint, in rendered scenes (in the spirit of SpaRRTa).',
  kinds: ['relation'],
  specSchema: RelationTaskSpecSchema,
  tools: RELATION_TOOLS,
  toolSpecs: () => toolSpecsOf(RELATION_TOOLS),
  giveUp: { tool: 'answer', args: { give_up: true } },
  score: { unit: 'accuracy %', what: 'trials answered correctly, per cent' },
  participant: {
    about: 'You will see pictures of scenes with a few objects and say, for each, where one object is relative to another: in front, behind, left or right.',
    instructions: [
      'Each trial shows one picture and a question naming the objects and whose point of view to take (yours, the camera, or a person in the scene).',
      'Answer with the arrow keys or F, B, L and R (front, back, left, right) as quickly and as accurately as you can; keys 1 to 3 say how sure you are (optional).',
      'Your answers and reaction times are recorded. During the scored trials you will not see whether you were right.',
    ],
  },
  agent: { system: RELATION_SYSTEM_PROMPT, reminder: RELATION_IDLE_REMINDER },
  trajectory: { header: TrajectoryHeaderSchema, step: RelationStepSchema, end: RelationEndSchema },
};
