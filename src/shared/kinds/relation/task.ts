// Relation trials as lab tasks: `tasks/<task_id>.json` (public: environment, triple, roles, the
// question) and its hidden parameters file `tasks/relation/<task_id>.json` (positions, label),
// from which main renders the trial image deterministically. Inputs: RelationParams. Outputs:
// task specs and question texts. Invariant: nothing in the spec reveals the answer; the
// question names the reference, the target and the observer by role and by object.
import { z } from 'zod';
import { mulberry32 } from '../../math/random';
import { ENVIRONMENT_IDS, ENVIRONMENTS } from './environments';
import { RELATION_CLASSES, RELATION_TASKS, type RelationTask } from './labels';
import { actorOf, type RelationParams } from './params';

export const RELATION_TASK_PREFIX = 'relation__';

const name = z.string().regex(/^[a-z_]+$/);

/** One trial of a task: what the player is told, and where its hidden parameters are. */
export const RelationTrialSchema = z.strictObject({
  environment: z.enum(ENVIRONMENT_IDS),
  triple: z.string().min(1),
  perspective: z.enum(RELATION_TASKS),
  roles: z.strictObject({ reference: name, target: name, observer: z.enum(['camera', 'human']) }),
  question: z.string().min(1),
  /** The hidden parameters file, relative to the tasks folder. */
  params: z.string().regex(/^relation\/[A-Za-z0-9_.-]+\.json$/),
});
export type RelationTrial = z.infer<typeof RelationTrialSchema>;

/**
 * A relation task: one trial (a scored task), or a block of trials with feedback after each
 * answer (a practice task).
 */
export const RelationTaskSpecSchema = z.object({
  task_id: z.string().regex(/^relation__[A-Za-z0-9_.-]+$/, 'relation task ids start with relation__'),
  kind: z.literal('relation'),
  practice: z.boolean().default(false),
  trials: z.array(RelationTrialSchema).min(1).max(50),
  /** Supersamples per pixel axis of the trial images. */
  samples: z.number().int().min(1).max(8).default(2),
}).superRefine((s, ctx) => {
  if (!s.practice && s.trials.length !== 1) ctx.addIssue({ code: 'custom', path: ['trials'], message: 'a scored relation task has exactly one trial' });
});
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
