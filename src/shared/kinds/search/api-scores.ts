// LabApi rows of scored search episodes (docs/DESIGN.md section 9, OpenEQA-style LLM-Match): a
// study's search aggregates per source with 95% bootstrap intervals, the free-text answers still
// to be rated, a human rater's mark, and the LLM judge run through a model runner. Also the
// judgement records stored beside each log. Merged into labMethods in ./lab.ts (the annotation
// rows of the search kind are in ./search.ts).
// Invariant: every row carries the hidden answers: experimenter only, refused while a participant
// session runs; the rater list never names who gave an answer (no model/human identity).
import { z } from 'zod';
import { StudyIdSchema } from '../../study/config';
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

/** A free-text answer waiting for a human rater: no identity of who gave it. */
export const PendingRatingSchema = z.strictObject({
  ref: z.string(),
  question: z.string(),
  correct: z.string(),
  synonyms: z.array(z.string()),
  given: z.string(),
});
export type PendingRating = z.infer<typeof PendingRatingSchema>;

const studyId = z.strictObject({ studyId: StudyIdSchema });

export const searchScoreMethods = {
  'search.results': {
    params: studyId.extend({ baselines: z.boolean().default(false).describe('also play the baseline players on the study\'s search tasks') }),
    result: SearchResultsSchema,
    doc: 'Search episodes of a study scored (rater marks over LLM-judge marks over the exact checker) and aggregated per source and question family: accuracy, success, steps, path length, collision rate with 95% bootstrap intervals (experimenter only).',
  },
  'search.pending': { params: studyId, result: z.array(PendingRatingSchema), doc: 'Free-text search answers of a study not yet rated by a person, in a fixed shuffled order, without who gave them.' },
  'search.rate': {
    params: studyId.extend({ ref: z.string().min(1), rater: z.string().min(1).max(80), mark: z.union([z.literal(1), z.literal(5)]) }),
    result: RaterRecordSchema,
    doc: 'A human rater marks one free-text answer 5 (correct) or 1 (wrong); stored beside the log with the rater id and time.',
  },
  'search.judge': {
    params: studyId.extend({ model: z.string().min(1).describe('PROVIDER:MODEL[@EFFORT] as for splatlab eval'), force: z.boolean().default(false) }),
    result: z.strictObject({ judged: z.number().int(), unparseable: z.number().int(), skipped: z.number().int() }),
    doc: 'Runs the LLM judge (pinned OpenEQA prompt) over the free-text search answers of a study not yet judged by that model and prompt; stores one judgement record beside each log; progress as \'progress\' events.',
  },
  'search.judgeCancel': { params: studyId, result: z.strictObject({ cancelled: z.boolean() }), doc: 'Stops a running search.judge of the study after the answer in flight (the marks stored so far stay).' },
} as const;
