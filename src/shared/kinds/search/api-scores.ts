// LabApi rows of scored search episodes (docs/DESIGN.md section 9, OpenEQA-style LLM-Match): a
// study's search aggregates per source with 95% bootstrap intervals, the free-text answers still
// to be rated, a human rater's mark, and the LLM judge run through a model runner. Also the
// judgement records stored beside each log. Merged into labMethods in ./lab.ts (the annotation
// rows of the search kind are in ./search.ts).
// Invariant: every row carries the hidden answers: experimenter only, refused while a participant
// session runs; the rater list never names who gave an answer (no model/human identity).
import { z } from 'zod';
import { StudyIdSchema } from '../../study/config';
import { RaterRecordSchema, SearchResultsSchema } from './scores';

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
