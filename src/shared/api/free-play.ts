// LabApi rows of free play in Results (issue 30 item 6; docs/STUDIES.md "Free play in Results"):
// the Play screen's episodes outside any study, per task with scores, call-by-call replay and CSV.
// Merged into labMethods in ./lab.ts. Invariant: experimenter rows (hidden scores): refused while
// a participant session runs and never in the participant policy table.
import { z } from 'zod';
import { PngDataUrl } from './episode';
import { StudyResultsSchema, TrajectoryViewSchema } from './study';

const log = z.string().min(1).max(400);

export const freePlayMethods = {
  'freeplay.results': {
    params: z.strictObject({}),
    result: StudyResultsSchema.pick({ episodes: true, summary: true, bootstrap: true }),
    doc: 'Free-play episodes (played outside studies) with their final scores, and a summary per task (experimenter only).',
  },
  'freeplay.trajectory': {
    params: z.strictObject({ log }),
    result: TrajectoryViewSchema,
    doc: 'One free-play episode call by call with the hidden score after each call (experimenter only).',
  },
  'freeplay.replayFrame': {
    params: z.strictObject({ log, step: z.number().int().nonnegative(), view: z.string().min(1).max(16) }),
    result: z.strictObject({ step: z.number().int(), view: z.string(), image: PngDataUrl, gaussians: z.number().int() }),
    doc: 'The scene of a free-play episode after a call, rendered from a held-out view (experimenter only).',
  },
  'freeplay.exportCsv': {
    params: z.strictObject({ table: z.enum(['episodes', 'summary']) }),
    result: z.strictObject({ filename: z.string(), csv: z.string() }),
    doc: 'The free-play episodes (one row each) or their summary per task as CSV text.',
  },
} as const;
