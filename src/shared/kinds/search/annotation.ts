// Annotation documents of search questions (docs/DESIGN.md section 9, after E3VS-Bench's
// protocol): a first annotator writes a question and its answer in a room, marks viewpoints
// answerable or unanswerable and chooses the start; a second annotator, blind to the answer and
// the marks, answers and marks on their own; the lab records the agreement.
// Inputs: the two annotators' parts. Outputs: the agreement (answer, marks on the shared poses,
// percent agreement and Cohen's kappa) and whether the annotation may become a task.
// Invariant: agreement is computed here only, from the document, so the view, the CLI and the
// export agree; a document without a verified agreement never exports.
import { z } from 'zod';
import { AnswerSchema, checkAnswer } from './answers';
import { DEFAULT_TOLERANCE, samePose, type PoseTolerance } from './answerability';
import type { Pose } from './pose';
import { QUESTION_FAMILIES } from './questions';

const finite = z.number().refine(Number.isFinite, 'must be finite');
const AnnPoseSchema = z.strictObject({ x: finite, y: finite, z: finite, yaw: finite, pitch: finite });

export const MarkSchema = z.strictObject({
  pose: AnnPoseSchema,
  answerable: z.boolean(),
  /** A small PNG of the view as a data URL (the list of marks shows it). */
  thumbnail: z.string().max(200_000).optional(),
});
export type Mark = z.infer<typeof MarkSchema>;

export const AnnotatorIdSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'annotator ids use letters, digits, _ . - (at most 40)');
export const AnnotationIdSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'annotation ids use lower-case letters, digits, _ and - (at most 48)');

const When = z.strictObject({ annotator: AnnotatorIdSchema, started: z.string(), finished: z.string() });

export const AgreementSchema = z.strictObject({
  answer: z.boolean().describe('the second answer passes the checker of the first annotator\'s answer'),
  shared: z.number().int().describe('viewpoints both annotators marked (within the pose tolerance)'),
  agreeing: z.number().int().describe('shared viewpoints marked the same way'),
  percent: z.number().nullable().describe('agreeing / shared (null without shared viewpoints)'),
  kappa: z.number().nullable().describe("Cohen's kappa of the answerable marks on the shared viewpoints (null when chance agreement is 1)"),
  answerable: z.number().int().describe('shared viewpoints both marked answerable'),
  agreed: z.boolean().describe('answer agrees, percent >= the threshold, at least one viewpoint both marked answerable, start unanswerable'),
  at: z.string(),
});
export type Agreement = z.infer<typeof AgreementSchema>;

export const AnnotationSchema = z.strictObject({
  id: AnnotationIdSchema,
  /** The room document (procedural room or captured room), relative to the tasks folder. */
  room: z.string().regex(/^[A-Za-z0-9_./-]+\.json$/).refine((p) => !p.split('/').includes('..'), 'room may not leave the tasks folder'),
  question: z.strictObject({
    family: z.enum(QUESTION_FAMILIES),
    text: z.string().min(1).max(300),
    /** What the question is about, in words (the needed objects of a procedural question). */
    needs: z.array(z.string().min(1)).min(1),
  }),
  answer: AnswerSchema,
  start: AnnPoseSchema,
  tolerance: z.strictObject({ position: z.number().positive().max(2), angle: z.number().positive().max(90) }).default(DEFAULT_TOLERANCE),
  first: When.extend({ marks: z.array(MarkSchema) }),
  second: When.extend({ answer: z.string().min(1).max(200), marks: z.array(MarkSchema) }).optional(),
  agreement: AgreementSchema.optional(),
});
export type Annotation = z.infer<typeof AnnotationSchema>;

/** Shared-pose agreement needed to export (E3VS-style double annotation; tunable in one place). */
export const MIN_PERCENT = 0.8;

export interface MarkPair {
  a: Mark;
  b: Mark;
}

/**
 * Pairs each first mark with the nearest unused second mark within the tolerance (greedy by
 * distance, so one mark is never counted twice).
 */
export function pairMarks(first: readonly Mark[], second: readonly Mark[], tol: PoseTolerance): MarkPair[] {
  const cands: { i: number; j: number; d: number }[] = [];
  first.forEach((a, i) => second.forEach((b, j) => {
    if (samePose(a.pose, b.pose, tol)) cands.push({ i, j, d: Math.hypot(a.pose.x - b.pose.x, a.pose.y - b.pose.y, a.pose.z - b.pose.z) });
  }));
  cands.sort((p, q) => p.d - q.d || p.i - q.i || p.j - q.j);
  const usedA = new Set<number>(), usedB = new Set<number>();
  const out: MarkPair[] = [];
  for (const c of cands) {
    if (usedA.has(c.i) || usedB.has(c.j)) continue;
    usedA.add(c.i);
    usedB.add(c.j);
    out.push({ a: first[c.i], b: second[c.j] });
  }
  return out;
}

/** Cohen's kappa of two binary raters over paired labels; null when chance agreement is 1. */
export function cohensKappa(pairs: readonly [boolean, boolean][]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const po = pairs.filter(([a, b]) => a === b).length / n;
  const pa = pairs.filter(([a]) => a).length / n, pb = pairs.filter(([, b]) => b).length / n;
  const pe = pa * pb + (1 - pa) * (1 - pb);
  if (pe >= 1 - 1e-12) return null;
  return (po - pe) / (1 - pe);
}

/** The agreement of a document that has both annotators' parts. */
export function agreementOf(doc: Annotation, at = new Date().toISOString()): Agreement {
  if (!doc.second) throw new Error(`annotation ${doc.id} has no second annotator yet`);
  const pairs = pairMarks(doc.first.marks, doc.second.marks, doc.tolerance);
  const labels = pairs.map((p): [boolean, boolean] => [p.a.answerable, p.b.answerable]);
  const agreeing = labels.filter(([a, b]) => a === b).length;
  const percent = pairs.length ? agreeing / pairs.length : null;
  const answerable = labels.filter(([a, b]) => a && b).length;
  const answer = checkAnswer(doc.answer, doc.second.answer);
  const startClear = !agreedAnswerable(doc, pairs).some((p) => samePose(p, doc.start, doc.tolerance));
  return {
    answer, shared: pairs.length, agreeing, percent, kappa: cohensKappa(labels), answerable,
    agreed: answer && percent !== null && percent >= MIN_PERCENT && answerable > 0 && startClear, at,
  };
}

/** Viewpoints both annotators marked answerable (the first annotator's pose of each pair). */
export function agreedAnswerable(doc: Annotation, pairs = doc.second ? pairMarks(doc.first.marks, doc.second.marks, doc.tolerance) : []): Pose[] {
  return pairs.filter((p) => p.a.answerable && p.b.answerable).map((p) => p.a.pose);
}

/** What a verifier may see of a document: no answer (beyond its type and choices) and no marks. */
export function blindView(doc: Annotation): { id: string; room: string; question: Annotation['question']; answerType: Annotation['answer']['type']; choices: string[]; start: Pose } {
  return { id: doc.id, room: doc.room, question: doc.question, answerType: doc.answer.type, choices: doc.answer.type === 'choice' ? doc.answer.choices : [], start: doc.start };
}
