// The search kind's score records (docs/DESIGN.md section 9, OpenEQA-style LLM-Match): an LLM
// judge's and a human rater's marks stored beside each log, one scored episode row, the metrics and
// the per-source cells of a study's aggregates. The LabApi rows that carry them are in
// src/shared/api/search-scores.ts.
// Invariant: a score is 100 * (mark - 1) / 4, null when the mark could not be read.
import { z } from 'zod';
import { QUESTION_FAMILIES } from './questions';

/** An LLM judge's reading of one free-text answer (stored in <log>.judge.json, newest last). */
export const JudgeRecordSchema = z.strictObject({
  judge: z.string().describe('the model spec of the judge (e.g. anthropic:claude-x)'),
  model: z.string().nullable().describe('the model version the provider reported'),
  prompt_hash: z.string().describe('FNV-1a of the pinned judge prompt template'),
  raw: z.string().describe('the judge output as returned'),
  mark: z.number().int().min(1).max(5).nullable().describe('1..5 after "Your mark:"; null when unparseable'),
  score: z.number().min(0).max(100).nullable().describe('100 * (mark - 1) / 4; null when unparseable'),
  at: z.string().describe('ISO time of the judgement'),
  end_image_hash: z.string().optional().describe('FNV-1a of the end image (PNG) the judge saw'),
  goal_image_hash: z.string().optional().describe('FNV-1a of the goal image (PNG) the judge saw'),
});
export type JudgeRecord = z.infer<typeof JudgeRecordSchema>;

/** A human rater's mark of one free-text answer (stored in <log>.rating.json, newest last). */
export const RaterRecordSchema = z.strictObject({
  rater: z.string().min(1).max(80),
  mark: z.union([z.literal(1), z.literal(5)]).describe('5: correct, 1: wrong (OpenEQA human protocol)'),
  score: z.number().min(0).max(100),
  at: z.string(),
});
export type RaterRecord = z.infer<typeof RaterRecordSchema>;

export const SearchSourceKindSchema = z.enum(['human', 'model', 'baseline']);
export const ScoredBySchema = z.enum(['rater', 'judge', 'exact', 'none']);

/** One scored search episode of a study. */
export const SearchEpisodeRowSchema = z.strictObject({
  ref: z.string().describe('the log, relative to the study folder'),
  who: SearchSourceKindSchema,
  source: z.string().describe('humans, a model name or a baseline player'),
  answerer: z.string().describe('the participant or the model run (the bootstrap cluster)'),
  taskId: z.string(),
  family: z.enum(QUESTION_FAMILIES),
  answerType: z.enum(['choice', 'yesno', 'number', 'text']),
  answer: z.string().nullable(),
  correct: z.boolean().describe('exact checker'),
  accuracy: z.number().min(0).max(100).describe('LLM-Match-style score: rater over judge over exact checker'),
  scoredBy: ScoredBySchema.describe('what gave the accuracy (none: no answer, scored 0)'),
  success: z.boolean(),
  steps: z.number().int(),
  path_length: z.number(),
  collision: z.union([z.literal(0), z.literal(1)]),
  excluded: z.string().nullable().describe('why the episode is out of the statistics (exclusion, withdrawal); null when it counts'),
});
export type SearchEpisodeRow = z.infer<typeof SearchEpisodeRowSchema>;

const Ci = z.strictObject({ mean: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable() });
export const SEARCH_METRICS = ['accuracy', 'success', 'steps', 'path_length', 'collision'] as const;
export const SearchMetricSchema = z.enum(SEARCH_METRICS);
export type SearchMetric = z.infer<typeof SearchMetricSchema>;

export const SearchCellSchema = z.strictObject({
  source: z.string(),
  who: SearchSourceKindSchema,
  group: z.string().describe("'all' or a question family"),
  n: z.number().int(),
  answerers: z.number().int(),
  metrics: z.strictObject(Object.fromEntries(SEARCH_METRICS.map((m) => [m, Ci])) as Record<SearchMetric, typeof Ci>),
});
export type SearchCell = z.infer<typeof SearchCellSchema>;

export const SearchResultsSchema = z.strictObject({
  cells: z.array(SearchCellSchema),
  episodes: z.array(SearchEpisodeRowSchema),
  scoredBy: z.record(ScoredBySchema, z.number().int()).describe('episodes in the statistics per kind of score'),
  resamples: z.number().int(),
});
export type SearchResults = z.infer<typeof SearchResultsSchema>;
