// LabApi rows of the spatial-relation trials (docs/RELATION.md): a study's relation results
// (accuracy per environment, triple and task with 95% intervals, the chance line, confusion
// matrices, reaction times; humans beside models) and its per-trial CSV. Merged into labMethods
// in ./lab.ts. Invariant: both rows carry the trials' truth: experimenter only, refused while a
// participant session runs.
import { z } from 'zod';
import { StudyIdSchema } from '../../study/config';
import { RELATION_CLASSES, RELATION_TASKS } from './labels';
import { RelationStudySummarySchema } from './study-summary';

export const RelationTrialRowSchema = z.strictObject({
  who: z.enum(['human', 'model']),
  answerer: z.string(),
  taskId: z.string(),
  trial: z.number().int().positive(),
  environment: z.string(),
  triple: z.string(),
  task: z.enum(RELATION_TASKS),
  truth: z.enum(RELATION_CLASSES),
  answer: z.enum(RELATION_CLASSES).nullable(),
  correct: z.boolean(),
  rtMs: z.number().nullable(),
  confidence: z.number().int().nullable(),
  /** An attention check (left out of accuracy, reported as checks passed). */
  catch: z.boolean().optional(),
  timedOut: z.boolean().optional(),
  /** A model's answer that named no class, as given (counted wrong, and counted). */
  unparsed: z.string().nullable().optional(),
  /** Server side: ms from the image leaving main to the answer's receipt. */
  serverMs: z.number().nullable().optional(),
});
export type RelationTrialRow = z.infer<typeof RelationTrialRowSchema>;

const Cell = z.strictObject({
  group: z.string(), who: z.enum(['human', 'model']), n: z.number().int(), correct: z.number().int(),
  accuracy: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), medianRtMs: z.number().nullable(),
});

export const RelationResultsSchema = z.strictObject({
  chance: z.number(),
  cells: z.array(Cell),
  confusion: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.record(z.string(), z.number().int())))),
  trials: z.array(RelationTrialRowSchema),
  /** Per environment x task cells, reaction times, accuracy over the block, checks, the paper's figures. */
  study: RelationStudySummarySchema.optional(),
});
export type RelationResults = z.infer<typeof RelationResultsSchema>;

const studyId = z.strictObject({ studyId: StudyIdSchema });

export const relationMethods = {
  'relation.results': { params: studyId, result: RelationResultsSchema, doc: 'Relation trials of a study: accuracy per environment, triple and task with 95% intervals, chance, confusion matrices, reaction times; humans and models (hidden data: experimenter only).' },
  'relation.exportCsv': { params: studyId, result: z.strictObject({ filename: z.string(), csv: z.string() }), doc: 'One CSV row per answered relation trial (participant or model, environment, triple, task, truth, answer, correct, reaction time, confidence).' },
} as const;

export const RELATION_LOCKED_METHODS = ['relation.results', 'relation.exportCsv'] as const;
