// LabApi rows of the spatial-relation trials (docs/RELATION.md): a study's relation results
// (accuracy per environment, triple and task with 95% intervals, the chance line, confusion
// matrices, reaction times; humans beside models) and its per-trial CSV. Merged into labMethods
// in ./lab.ts. Invariant: both rows carry the trials' truth: experimenter only, refused while a
// participant session runs.
import { z } from 'zod';
import { StudyIdSchema } from '../../study/config';
import { RelationTrialResultSchema } from './kind';
import { RelationStudySummarySchema } from './study-summary';

const trial = RelationTrialResultSchema.shape;

/**
 * One trial of a study as the API and the CSV list it: who answered, then the end record's trial
 * fields (RelationTrialResultSchema, declared once there) under the API's camelCase names. A
 * trial's parameters file stays out of the row; `rtMs` is null when the trial timed out.
 */
export const RelationTrialRowSchema = z.strictObject({
  who: z.enum(['human', 'model']),
  answerer: z.string(),
  taskId: z.string(),
  ...RelationTrialResultSchema.pick({ trial: true, environment: true, triple: true, task: true, truth: true, answer: true, correct: true }).shape,
  rtMs: trial.rt_ms,
  confidence: trial.confidence,
  catch: trial.catch,
  timedOut: trial.timed_out,
  unparsed: trial.unparsed,
  serverMs: trial.server_ms,
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
