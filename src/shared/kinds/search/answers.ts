// Answers of search questions: the answer-type schema, the exact checkers (reading rules in
// ./answer-read.ts) and the OpenEQA-style judge (pinned prompt, the "Your mark:" parse) for free text.
// Inputs: an Answer and a player's raw answer string. Outputs: correct or not; a judge score.
// Invariant: checking is pure and depends only on the two strings, so a trajectory regrades
// identically; a closed answer type never needs a judge.
import { z } from 'zod';
import { colourFamily, contentWords, parseChoice, parseColour, parseNumber, parseText, parseYesNo } from './answer-read';
import { fnv1aHex } from '../../math/hash';

export const AnswerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('choice'), choices: z.array(z.string()).min(2), correct: z.string() }),
  z.object({ type: z.literal('yesno'), correct: z.enum(['yes', 'no']) }),
  z.object({ type: z.literal('number'), correct: z.number().int().nonnegative() }),
  z.object({ type: z.literal('text'), correct: z.string().min(1), synonyms: z.array(z.string()) }),
]);
export type Answer = z.infer<typeof AnswerSchema>;

/** What the exact checker read in an answer and whether it is the correct one. */
export interface AnswerReading {
  /** The canonical answer read (a choice, yes/no, a number, a colour family, an accepted phrase), or null. */
  read: string | null;
  correct: boolean;
}

/** Reads a player's answer the way its answer type is checked (docs/TASKS.md, "Answer checking"). */
export function readAnswer(answer: Answer, given: string): AnswerReading {
  const r = (read: string | number | null, truth: string | number): AnswerReading => ({ read: read === null ? null : String(read), correct: read !== null && read === truth });
  switch (answer.type) {
    case 'choice': return r(parseChoice(given, answer.choices), answer.correct);
    case 'yesno': return r(parseYesNo(given), answer.correct);
    case 'number': return r(parseNumber(given), answer.correct);
    case 'text': {
      const family = colourFamily(answer.correct);
      if (family) {
        const accepted = new Map(answer.synonyms.flatMap((w) => contentWords(w)).map((w) => [w, family] as [string, string]));
        return r(parseColour(given, accepted), family);
      }
      const accepted = [answer.correct, ...answer.synonyms];
      const hit = parseText(given, accepted) !== null;
      return { read: hit ? answer.correct : null, correct: hit };
    }
  }
}

/** Exact check of a player's answer. */
export function checkAnswer(answer: Answer, given: string): boolean {
  return readAnswer(answer, given).correct;
}

/** The answer as a person would write it (goal-view oracle, docs). */
export function answerText(answer: Answer): string {
  return String(answer.correct);
}

/** The lines every judge template ends with: the episode's placeholders, then the mark asked for. */
export const JUDGE_QUERY_LINES = ['Question: {question}', 'Answer: {answer}', 'Response: {response}', 'Your mark:'] as const;

/** Pinned judge prompt (OpenEQA style); the placeholders are filled per episode. */
export const JUDGE_PROMPT = [
  'You are an AI assistant who will help me to evaluate the response given the question and the correct answer.',
  'To mark a response, you should output a single integer between 1 and 5 (including 1, 5).',
  '5 means that the response perfectly matches the answer.',
  '1 means that the response is completely different from the answer.',
  '',
  ...JUDGE_QUERY_LINES,
].join('\n');

/** A judge template with its {question}, {answer} and {response} filled (each placeholder once). */
export function fillJudgePrompt(template: string, question: string, answer: string, response: string): string {
  return template.replace('{question}', question).replace('{answer}', answer).replace('{response}', response);
}

export function judgePrompt(question: string, answer: string, response: string): string {
  return fillJudgePrompt(JUDGE_PROMPT, question, answer, response);
}

/** FNV-1a of the prompt template, stored with each judged score so a changed prompt shows. */
export function promptHash(text: string = JUDGE_PROMPT): string {
  return fnv1aHex(text);
}

export interface JudgeMark {
  mark: number; // 1..5
  score: number; // 100 * (mark - 1) / 4
}

/**
 * The judge's mark: the integer 1..5 after the last "Your mark:" (markdown emphasis allowed);
 * a bare single digit 1..5 when the judge wrote only that; otherwise null (unparseable).
 */
export function parseJudgeMark(raw: string): JudgeMark | null {
  const re = /your mark\s*:?\s*\**\s*([1-5])(?![0-9])/gi;
  let mark: number | null = null;
  for (let m = re.exec(raw); m; m = re.exec(raw)) mark = Number(m[1]);
  if (mark === null) {
    const bare = raw.trim().match(/^\**([1-5])\**\.?$/);
    if (bare) mark = Number(bare[1]);
  }
  return mark === null ? null : { mark, score: (100 * (mark - 1)) / 4 };
}
