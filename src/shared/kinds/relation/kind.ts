// The `relation` task kind, shared half (docs/DESIGN.md sections 9 and 13; docs/RELATION.md):
// its spec schema (src/shared/kinds/relation/task.ts), the single `answer` tool, its trajectory fields
// and the pure episode: one answer per trial, trials in order, the end after the last one.
// Inputs: a relation task spec, tool calls. Outputs: StepResults, budgets, the public kind state.
// Invariant: the rules never see an answer's truth (it stays in main); a refused call still
// costs a call, and the calls budget (3 per trial) ends an episode whose player keeps failing.
import { z } from 'zod';
import type { StepResult, ToolCall } from '../../env/episode';
import type { BudgetState } from '../../env/format';
import type { StepInfo } from '../../env/step-info';
import { EndRecordSchema, StepRecordSchema, TrajectoryHeaderSchema } from '../../env/trajectory-schema';
import { RELATION_CLASSES, RELATION_TASKS } from './labels';
import { RelationTaskSpecSchema, type RelationTaskSpec } from './task';
import type { KindRules, TaskKindModule, ToolSpec } from '../kind';

export const AnswerArgsSchema = z.strictObject({
  relation: z.enum(RELATION_CLASSES).optional().describe('where the target is relative to the reference, as the observer sees it'),
  give_up: z.literal(true).optional().describe('end the episode now; unanswered trials count as wrong'),
  confidence: z.number().int().min(1).max(3).optional().describe('optional: 1 = a guess, 2 = fairly sure, 3 = sure'),
  rt_ms: z.number().min(0).max(3_600_000).optional().describe('optional: reaction time measured by a person\'s screen, ms'),
}).refine((a) => (a.relation !== undefined) !== (a.give_up === true), 'give relation (front, back, left or right), or give_up: true, not both')
  .describe('Answer the current trial with one of front, back, left, right. The episode moves to the next trial (if any) and ends after the last.');
export type AnswerArgs = z.infer<typeof AnswerArgsSchema>;

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
});
export type RelationKindState = z.infer<typeof RelationKindStateSchema>;

/** One answered trial as the end record lists it (main fills the truth). */
export const RelationTrialResultSchema = z.strictObject({
  trial: z.number().int().positive(),
  environment: z.string(),
  triple: z.string(),
  task: z.enum(RELATION_TASKS),
  truth: z.enum(RELATION_CLASSES),
  answer: z.enum(RELATION_CLASSES).nullable(),
  correct: z.boolean(),
  rt_ms: z.number().nullable().describe('the screen\'s reaction time when sent, else the time from the observation to the call'),
  confidence: z.number().int().nullable(),
});
export type RelationTrialResult = z.infer<typeof RelationTrialResultSchema>;

export const RelationEndSchema = EndRecordSchema.extend({
  reason: z.enum(['answered', 'calls', 'gave_up']).describe("relation: 'answered' (every trial answered), 'calls' (budget spent) or 'gave_up'"),
  practice: z.boolean(),
  trials: z.array(RelationTrialResultSchema),
  accuracy: z.number().describe('correct answers / trials'),
});

export const RelationStepSchema = StepRecordSchema.extend({
  trial: z.number().int().positive().optional().describe('relation: the trial this call answered'),
});

function toolSpecs(): ToolSpec[] {
  const parameters = z.toJSONSchema(AnswerArgsSchema, { io: 'input' }) as Record<string, unknown>;
  delete parameters.description;
  return [{ name: 'answer', description: AnswerArgsSchema.description ?? '', parameters }];
}

/** `[trial 2/4 | calls left 7]` */
export function relationFooter(trial: number, trials: number, callsLeft: number): string {
  return `[trial ${trial}/${trials} | calls left ${callsLeft}]`;
}

/** The pure episode of a relation task. */
export class RelationRules implements KindRules {
  private answered: AnswerArgs[] = [];
  private calls = 0;
  private ended: 'answered' | 'calls' | 'gave_up' | null = null;
  readonly maxCalls: number;

  constructor(readonly spec: RelationTaskSpec) {
    this.maxCalls = CALLS_PER_TRIAL * spec.trials.length;
  }

  get done(): boolean {
    return this.ended !== null;
  }

  get endReason(): 'answered' | 'calls' | 'gave_up' | null {
    return this.ended;
  }

  get stepCount(): number {
    return this.calls;
  }

  readonly nextId = 0;

  /** 0-based index of the trial the next answer is for (trials.length once all are answered). */
  get current(): number {
    return this.answered.length;
  }

  answers(): readonly AnswerArgs[] {
    return this.answered;
  }

  records(): [] {
    return [];
  }

  budgets(): BudgetState {
    return { gaussians: 0, maxGaussians: 0, callsLeft: this.maxCalls - this.calls, rendersLeft: 0 };
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
    return this.info('standing', true, false, this.calls > 0 ? this.calls : null);
  }

  private info(tool: string, ok: boolean, charged: boolean, step: number | null): StepInfo {
    const b = this.budgets();
    return {
      tool, ok, charged, step, changed: false, ids: [], done: this.done,
      // SplatBench's end reasons: a full set of answers is the player's submission.
      endReason: this.ended === null ? null : this.ended === 'calls' ? 'auto' : 'submit',
      nextId: 0, budgets: { gaussians: 0, maxGaussians: 0, callsLeft: b.callsLeft, rendersLeft: 0 },
    };
  }

  step(call: ToolCall): StepResult {
    const tool = typeof call?.tool === 'string' ? call.tool : `<${typeof call?.tool}>`;
    if (this.done) {
      return { tool, charged: false, ok: false, changed: false, done: true, info: this.info(tool, false, false, null), body: 'The episode is over; this call was not charged.', footer: this.footer() };
    }
    this.calls++;
    let body: string;
    let ok = false;
    if (tool !== 'answer') {
      body = `Error: unknown tool '${tool}' (the only tool is answer)`;
    } else {
      const parsed = AnswerArgsSchema.safeParse(call.args ?? {});
      if (!parsed.success) {
        const iss = parsed.error.issues[0];
        body = `Error: answer: ${iss.path.join('.') || 'arguments'}: ${iss.message}`;
      } else if (parsed.data.give_up) {
        ok = true;
        this.ended = 'gave_up';
        body = 'Gave up; the remaining trials count as wrong.';
      } else {
        ok = true;
        this.answered.push(parsed.data);
        body = `Answered ${parsed.data.relation}.`;
        if (this.current === this.spec.trials.length) this.ended = 'answered';
      }
    }
    if (!this.done && this.calls >= this.maxCalls) this.ended = 'calls';
    if (!this.done && ok) body = `${body}\n${this.questionText(this.current)}`;
    const step = this.calls;
    return {
      tool, charged: true, ok, changed: false, done: this.done,
      ...(this.done ? { endReason: this.ended === 'calls' ? 'auto' as const : 'submit' as const } : {}),
      info: this.info(tool, ok, true, step), body, footer: this.footer(),
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
  toolSpecs,
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
