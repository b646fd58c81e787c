// Answers of search questions: the answer-type schema, the exact checkers and the OpenEQA-style
// judge (pinned prompt, the "Your mark:" parse and 100 * (s - 1) / 4) for free text.
// Inputs: an Answer and a player's raw answer string. Outputs: correct or not; a judge score.
// Invariant: checking is pure and depends only on the two strings, so a trajectory regrades
// identically; a closed answer type never needs a judge.
import { z } from 'zod';

export const AnswerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('choice'), choices: z.array(z.string()).min(2), correct: z.string() }),
  z.object({ type: z.literal('yesno'), correct: z.enum(['yes', 'no']) }),
  z.object({ type: z.literal('number'), correct: z.number().int().nonnegative() }),
  z.object({ type: z.literal('text'), correct: z.string().min(1), synonyms: z.array(z.string()) }),
]);
export type Answer = z.infer<typeof AnswerSchema>;
export type AnswerType = Answer['type'];

/** Words that carry no answer ("it is the red one" reads as "red"). */
const FILLER = new Set(['a', 'an', 'the', 'it', 'is', 'its', 'it\'s', 'colour', 'color', 'object', 'thing', 'one', 'there', 'are', 'answer']);
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** Lower case, punctuation to spaces, single spaces. */
export function normalize(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Content words of a short text answer, singular (trailing 's' dropped from words over 3 letters). */
function contentWords(s: string): string {
  return normalize(s).split(' ').filter((w) => w && !FILLER.has(w)).map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w)).join(' ');
}

/** The number a player wrote (digits or a word up to twelve), or null. */
export function parseNumber(s: string): number | null {
  const n = normalize(s);
  const digits = n.match(/^\D*?(\d+)\D*$/);
  if (digits) return Number(digits[1]);
  const words = n.split(' ').map((w) => NUMBER_WORDS.indexOf(w)).filter((i) => i >= 0);
  return words.length === 1 ? words[0] : null;
}

export function parseYesNo(s: string): 'yes' | 'no' | null {
  const n = normalize(s);
  if (/^(yes|y|yeah|yep|true)\b/.test(n)) return 'yes';
  if (/^(no|n|nope|false)\b/.test(n)) return 'no';
  return null;
}

/** A choice by its text or its letter (a, b, c ... as listed). */
export function parseChoice(s: string, choices: readonly string[]): string | null {
  const n = normalize(s);
  const byText = choices.find((c) => normalize(c) === n || contentWords(c) === contentWords(s));
  if (byText) return byText;
  const letter = n.match(/^\(?([a-z])\)?$/);
  if (letter) {
    const i = letter[1].charCodeAt(0) - 97;
    if (i < choices.length) return choices[i];
  }
  return null;
}

/** Exact check of a player's answer. */
export function checkAnswer(answer: Answer, given: string): boolean {
  switch (answer.type) {
    case 'choice': return parseChoice(given, answer.choices) === answer.correct;
    case 'yesno': return parseYesNo(given) === answer.correct;
    case 'number': return parseNumber(given) === answer.correct;
    case 'text': {
      const g = contentWords(given);
      return g.length > 0 && [answer.correct, ...answer.synonyms].some((a) => contentWords(a) === g);
    }
  }
}

/** The answer as a person would write it (goal-view oracle, docs). */
export function answerText(answer: Answer): string {
  return String(answer.correct);
}

/** Pinned judge prompt (OpenEQA style); the placeholders are filled per episode. */
export const JUDGE_PROMPT = [
  'You are an AI assistant who will help me to evaluate the response given the question and the correct answer.',
  'To mark a response, you should output a single integer between 1 and 5 (including 1, 5).',
  '5 means that the response perfectly matches the answer.',
  '1 means that the response is completely different from the answer.',
  '',
  'Question: {question}',
  'Answer: {answer}',
  'Response: {response}',
  'Your mark:',
].join('\n');

export function judgePrompt(question: string, answer: string, response: string): string {
  return JUDGE_PROMPT.replace('{question}', question).replace('{answer}', answer).replace('{response}', response);
}

/** FNV-1a of the prompt template, stored with each judged score so a changed prompt shows. */
export function promptHash(text: string = JUDGE_PROMPT): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
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
