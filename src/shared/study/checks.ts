// Comprehension and attention checks of a study (issue 24 item 6; docs/STUDIES.md "Checks"), as
// zod schemas for the definitions (study.json `checks`) and the records (participants.json).
// A comprehension check follows the instructions: multiple-choice questions with a correct option
// each; the participant must answer all correctly to go on (a wrong attempt sends them back to
// the instructions); every attempt is recorded. Attention checks are instructed-response items
// shown after a scored task; each answer is recorded, right or wrong, and the session goes on. An
// exclusion rule (more than N failed attention checks) is the experimenter's to apply: it excludes
// the participant's scored episodes, so the participant flow counts them as excluded.
// Invariants: the correct options never reach a participant's page (checkForPage strips them);
// a check id, like a question id, is a short snake_case word naming export rows.
import { z } from 'zod';

const CheckId = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'check ids are short snake_case words');

/** One multiple-choice item with its correct option. */
const CheckItemBase = z.strictObject({
  id: CheckId,
  prompt: z.string().min(1).max(500),
  options: z.array(z.string().min(1).max(120)).min(2).max(8),
  correct: z.string().min(1).max(120),
});
function itemProblems(q: z.infer<typeof CheckItemBase>, ctx: z.RefinementCtx): void {
  if (!q.options.includes(q.correct)) ctx.addIssue({ code: 'custom', path: ['correct'], message: `the correct answer of '${q.id}' must be one of its options` });
  if (new Set(q.options).size !== q.options.length) ctx.addIssue({ code: 'custom', path: ['options'], message: `an option of '${q.id}' appears twice` });
}
export const CheckItemSchema = CheckItemBase.superRefine(itemProblems);
export type CheckItem = z.infer<typeof CheckItemSchema>;

export const ComprehensionCheckSchema = z.strictObject({
  questions: z.array(CheckItemSchema).min(1).max(10),
});

/** An attention check shown after the scored task numbered `afterTask` (1-based) and its questionnaire. */
export const AttentionCheckSchema = CheckItemBase.extend({ afterTask: z.number().int().positive().max(24) }).superRefine(itemProblems);
export type AttentionCheck = z.infer<typeof AttentionCheckSchema>;

export const StudyChecksSchema = z
  .strictObject({
    comprehension: ComprehensionCheckSchema.optional(),
    attention: z.array(AttentionCheckSchema).max(12).default([]),
    /** The exclusion rule: a participant who failed more than this many attention checks is excluded when the rule is applied. */
    maxAttentionFailures: z.number().int().nonnegative().optional(),
  })
  .superRefine((c, ctx) => {
    const ids = [...(c.comprehension?.questions ?? []), ...c.attention].map((q) => q.id);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'a check id appears twice' });
  });
export type StudyChecks = z.infer<typeof StudyChecksSchema>;

/**
 * Comprehension attempts a session allows (issue 38 item 4): each is stored, so a page failing the
 * check in a loop grew participants.json without bound; past this the check is refused in one
 * line and the experimenter takes over.
 */
export const MAX_COMPREHENSION_ATTEMPTS = 10;

/** One comprehension attempt: the answers, which were wrong, and whether all were right. */
export const ComprehensionAttemptSchema = z.strictObject({
  at: z.string(),
  answers: z.record(CheckId, z.string().max(120)),
  wrong: z.array(CheckId),
  passed: z.boolean(),
});
export type ComprehensionAttempt = z.infer<typeof ComprehensionAttemptSchema>;

/** One attention check answered. */
export const AttentionRecordSchema = z.strictObject({ id: CheckId, at: z.string(), answer: z.string().max(120), passed: z.boolean() });
export type AttentionRecord = z.infer<typeof AttentionRecordSchema>;

export const ParticipantChecksSchema = z.strictObject({
  comprehension: z.array(ComprehensionAttemptSchema).default([]),
  attention: z.array(AttentionRecordSchema).default([]),
});
export type ParticipantChecks = z.infer<typeof ParticipantChecksSchema>;

/** What a participant's page gets of a check: prompts and options, never the correct answers. */
export const CheckForPageSchema = z.strictObject({
  kind: z.enum(['comprehension', 'attention']),
  items: z.array(z.strictObject({ id: CheckId, prompt: z.string(), options: z.array(z.string()) })),
  /** Comprehension: attempts so far and whether the last one failed (the page says so). */
  attempts: z.number().int().nonnegative(),
  lastFailed: z.boolean(),
});
export type CheckForPage = z.infer<typeof CheckForPageSchema>;

export function checkForPage(kind: 'comprehension' | 'attention', items: readonly CheckItem[], attempts: readonly ComprehensionAttempt[] = []): CheckForPage {
  return { kind, items: items.map((q) => ({ id: q.id, prompt: q.prompt, options: [...q.options] })), attempts: attempts.length, lastFailed: attempts.at(-1)?.passed === false };
}

/** The ids of the items answered wrongly (an item left out is wrong); refuses an id that is no item. */
export function wrongAnswers(items: readonly CheckItem[], answers: Record<string, string>): string[] {
  for (const id of Object.keys(answers)) if (!items.some((q) => q.id === id)) throw new Error(`'${id}' is not an item of this check`);
  return items.filter((q) => answers[q.id] !== q.correct).map((q) => q.id);
}

/** Attention checks a participant failed, and how many they answered. */
export function attentionTally(records: readonly AttentionRecord[]): { failed: number; answered: number } {
  return { failed: records.filter((r) => !r.passed).length, answered: records.length };
}

/** One row of the export's checks table: one item answered in one attempt. */
export interface CheckRow {
  participant: string;
  check: 'comprehension' | 'attention';
  attempt: number;
  item: string;
  answer: string;
  correct: boolean;
  passed: boolean;
  at: string;
}

/** A participant's checks as export rows (every comprehension attempt, every attention check). */
export function checkRows(participant: string, checks: ParticipantChecks | undefined): CheckRow[] {
  if (!checks) return [];
  const out: CheckRow[] = [];
  checks.comprehension.forEach((a, i) => {
    for (const [item, answer] of Object.entries(a.answers)) out.push({ participant, check: 'comprehension', attempt: i + 1, item, answer, correct: !a.wrong.includes(item), passed: a.passed, at: a.at });
    for (const item of a.wrong.filter((w) => !(w in a.answers))) out.push({ participant, check: 'comprehension', attempt: i + 1, item, answer: '', correct: false, passed: a.passed, at: a.at });
  });
  for (const r of checks.attention) out.push({ participant, check: 'attention', attempt: 1, item: r.id, answer: r.answer, correct: r.passed, passed: r.passed, at: r.at });
  return out;
}

/** What Results shows beside a participant: comprehension attempts and attention checks passed. */
export const ParticipantCheckSummarySchema = z.strictObject({
  participant: z.string(),
  comprehensionAttempts: z.number().int().nonnegative(),
  comprehensionPassed: z.boolean(),
  attentionPassed: z.number().int().nonnegative(),
  attentionAnswered: z.number().int().nonnegative(),
  /** More attention checks failed than the study's rule allows (whether or not the rule was applied yet). */
  overRule: z.boolean(),
});
export type ParticipantCheckSummary = z.infer<typeof ParticipantCheckSummarySchema>;

export function checkSummary(participant: string, checks: ParticipantChecks | undefined, maxAttentionFailures: number | undefined): ParticipantCheckSummary {
  const { failed, answered } = attentionTally(checks?.attention ?? []);
  return {
    participant,
    comprehensionAttempts: checks?.comprehension.length ?? 0,
    comprehensionPassed: checks?.comprehension.some((a) => a.passed) ?? false,
    attentionPassed: answered - failed,
    attentionAnswered: answered,
    overRule: maxAttentionFailures !== undefined && failed > maxAttentionFailures,
  };
}

/**
 * The New study form's check lines: one item per line, fields split by `|`, the correct option
 * marked with a leading `*`: `prompt | option | *correct | option` (comprehension), or `N | prompt
 * | options...` (an attention check after scored task N). Ids are made from the position (c1, c2,
 * ...; a1, a2, ...). Returns the items, or the first problem naming its line.
 */
export function parseCheckLines(text: string, kind: 'comprehension' | 'attention'): { items: (CheckItem & { afterTask?: number })[] } | { problem: string } {
  const items: (CheckItem & { afterTask?: number })[] = [];
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  for (const [i, line] of lines.entries()) {
    const fields = line.split('|').map((f) => f.trim());
    const afterTask = kind === 'attention' ? Number(fields.shift()) : undefined;
    if (afterTask !== undefined && !(Number.isInteger(afterTask) && afterTask > 0)) return { problem: `${kind} line ${i + 1}: start with the number of the task it follows, then '|'` };
    const [prompt, ...rest] = fields;
    const marked = rest.filter((o) => o.startsWith('*'));
    if (!prompt || rest.length < 2) return { problem: `${kind} line ${i + 1}: write a question and at least two options, separated by '|'` };
    if (marked.length !== 1) return { problem: `${kind} line ${i + 1}: mark exactly one option as correct with a leading '*'` };
    const options = rest.map((o) => o.replace(/^\*\s*/, ''));
    const item = { id: `${kind[0]}${i + 1}`, prompt, options, correct: marked[0].replace(/^\*\s*/, ''), ...(afterTask !== undefined ? { afterTask } : {}) };
    const ok = (afterTask !== undefined ? AttentionCheckSchema : CheckItemSchema).safeParse(item);
    if (!ok.success) return { problem: `${kind} line ${i + 1}: ${ok.error.issues[0].message}` };
    items.push(item);
  }
  return { items };
}
