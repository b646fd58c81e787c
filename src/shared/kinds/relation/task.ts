// Relation trials as lab tasks: `tasks/<task_id>.json` (public: environment, triple, roles, the
// question) and its hidden parameters file `tasks/relation/<task_id>.json` (positions, label),
// from which main renders the trial image deterministically. Inputs: RelationParams. Outputs:
// task specs and question texts. Invariant: nothing in the spec reveals the answer; the
// question names the reference, the target and the observer by role and by object.
import { z } from 'zod';
import { mulberry32 } from '../../math/random';
import { hashSeed } from './dataset';
import { ENVIRONMENT_IDS, ENVIRONMENTS } from './environments';
import { RELATION_CLASSES, RELATION_TASKS, type RelationTask } from './labels';
import { actorOf, type RelationParams } from './params';

export const RELATION_TASK_PREFIX = 'relation__';

/** Screen size of a trial image when a block does not set one: twice the lab's 224 px. */
export const DEFAULT_DISPLAY_PX = 448;

const name = z.string().regex(/^[a-z_]+$/);

/** One trial of a task: what the player is told, and where its hidden parameters are. */
export const RelationTrialSchema = z.strictObject({
  environment: z.enum(ENVIRONMENT_IDS),
  triple: z.string().min(1),
  perspective: z.enum(RELATION_TASKS),
  roles: z.strictObject({ reference: name, target: name, observer: z.enum(['camera', 'human']) }),
  question: z.string().min(1),
  /** The hidden parameters file, relative to the tasks folder. */
  params: z.string().regex(/^relation\/[A-Za-z0-9_./-]+\.json$/).refine((p) => !p.includes('..'), 'stays inside tasks/relation/'),
  /**
   * An attention check: the question tells the player which key to press (this class); the
   * image is an ordinary scene. Scored against the instruction and left out of accuracy.
   */
  catch: z.enum(RELATION_CLASSES).optional(),
});
export type RelationTrial = z.infer<typeof RelationTrialSchema>;

/**
 * How a person's screen runs a block of trials (psychophysics, as jsPsych studies do): a
 * fixation cross, the stimulus until an answer or the deadline, a break screen every K trials,
 * the optional confidence keys, and a per-participant trial order.
 */
export const RelationBlockSchema = z.strictObject({
  fixation_ms: z.number().int().min(0).max(5000).default(500),
  /** The stimulus stays until an answer, or this long (null: no deadline). */
  deadline_ms: z.number().int().min(200).max(600_000).nullable().default(null),
  /** A break screen after every K trials (0: none). */
  break_every: z.number().int().min(0).max(1000).default(0),
  confidence: z.boolean().default(true),
  /** Trials shown in an order seeded by this and the player's id (null: the file's order). */
  order_seed: z.number().int().nullable().default(null),
  /**
   * CSS pixels of the image's longer side on screen, set by the experimenter (`relation block
   * --display-px`); with each trial's own image size (its parameters file) it fixes the scale,
   * which `relation block` prints and the trial page carries (data-scale).
   */
  display_px: z.number().int().min(64).max(2048).default(DEFAULT_DISPLAY_PX),
});

/** Trials of one block (SpaRRTa-sized studies: 160 scored trials and their catch trials). */
export const MAX_BLOCK_TRIALS = 400;

/**
 * A relation task: one trial (a scored task), or a block of trials (`block`, scored or
 * practice), or a practice block with feedback after each answer.
 */
export const RelationTaskSpecSchema = z.object({
  task_id: z.string().regex(/^relation__[A-Za-z0-9_.-]+$/, 'relation task ids start with relation__'),
  kind: z.literal('relation'),
  practice: z.boolean().default(false),
  trials: z.array(RelationTrialSchema).min(1).max(MAX_BLOCK_TRIALS),
  /** Supersamples per pixel axis of the trial images. */
  samples: z.number().int().min(1).max(8).default(2),
  block: RelationBlockSchema.optional(),
  /** Where a block's trials were drawn from (recorded by `splatlab relation block`). */
  source: z.strictObject({ dataset: z.string(), split: z.string(), per_cell: z.number().int(), seed: z.number().int() }).optional(),
}).superRefine((s, ctx) => {
  if (!s.practice && !s.block && s.trials.length !== 1) ctx.addIssue({ code: 'custom', path: ['trials'], message: 'a scored relation task has exactly one trial (or is a block)' });
  if (!s.block && s.trials.length > 50) ctx.addIssue({ code: 'custom', path: ['trials'], message: 'a practice task without a block has at most 50 trials' });
});

/**
 * The order a player sees a task's trials in: the file's, or (a block with an order seed) a
 * shuffle seeded by the block's seed and the player's id, the same on every resume.
 */
export function trialOrder(spec: Pick<RelationTaskSpec, 'trials' | 'block'>, player: string): number[] {
  const order = spec.trials.map((_, i) => i);
  const seed = spec.block?.order_seed;
  if (seed === null || seed === undefined) return order;
  mulberry32(hashSeed(`${seed}/order/${player}`)).shuffle(order);
  return order;
}

/** The question of an attention check: which key to press, with the scene as a distractor. */
export function catchQuestion(answer: (typeof RELATION_CLASSES)[number]): string {
  return `Attention check: ignore the picture and answer ${answer} (${{ front: 'up arrow or F', back: 'down arrow or B', left: 'left arrow or L', right: 'right arrow or R' }[answer]}).`;
}
export type RelationTaskSpec = z.infer<typeof RelationTaskSpecSchema>;

const pretty = (model: string) => model.replace(/_/g, ' ');

export function questionFor(task: RelationTask, reference: string, target: string): string {
  const ref = pretty(reference), tgt = pretty(target);
  if (task === 'ego') {
    return `From the camera's viewpoint (yours), where is the ${tgt} (target) relative to the ${ref} (reference)? `
      + `Front means farther away than the ${ref}, back means closer to you, left and right as you see them. Answer front, back, left or right.`;
  }
  return `From the viewpoint of the person in the scene (observer), looking from the person towards the ${ref} (reference), `
    + `where is the ${tgt} (target) relative to the ${ref}? Front means beyond the ${ref} as the person sees it, back means `
    + `between the person and the ${ref}, left and right as the person would see them. Answer front, back, left or right.`;
}

export function trialFor(params: RelationParams, paramsFile: string): RelationTrial {
  const reference = actorOf(params, 'reference').label, target = actorOf(params, 'target').label;
  return {
    environment: params.environment, triple: params.triple, perspective: params.task,
    roles: { reference, target, observer: params.observer }, question: questionFor(params.task, reference, target),
    params: paramsFile,
  };
}

export interface TrialPlan {
  environment: string;
  triple: string;
  task: RelationTask;
  wanted: (typeof RELATION_CLASSES)[number];
  seed: number;
  id: string;
  practice: boolean;
}

/**
 * The trials of a task set: every environment x triple x task once (30 scored trials), the
 * classes dealt evenly over them, and `practice` extra trials (both tasks, all four classes).
 */
export function planTrials(seed: number, practice: number): TrialPlan[] {
  const rng = mulberry32(seed);
  const out: TrialPlan[] = [];
  let k = 0;
  for (const env of ENVIRONMENT_IDS) {
    for (const triple of ENVIRONMENTS[env].triples) {
      for (const task of RELATION_TASKS) {
        out.push({ environment: env, triple: triple.id, task, wanted: RELATION_CLASSES[k % 4], seed: rng.int(2 ** 31), id: `${env}__${triple.id}__${task}`, practice: false });
        k++;
      }
    }
  }
  for (let i = 0; i < practice; i++) {
    const env = ENVIRONMENT_IDS[i % ENVIRONMENT_IDS.length];
    out.push({
      environment: env, triple: ENVIRONMENTS[env].triples[0].id, task: RELATION_TASKS[i % 2], wanted: RELATION_CLASSES[i % 4],
      seed: rng.int(2 ** 31), id: `p${String(i + 1).padStart(2, '0')}`, practice: true,
    });
  }
  return out;
}
