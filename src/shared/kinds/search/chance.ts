// The analytic chance level of search questions (docs/TASKS.md, "Baselines and chance"): the
// answer space of a question (its choices; yes and no; the counts 0..5; the colour names, object
// categories or sign words its family draws from) and the share of that space the exact checker
// accepts, which is what a uniform guess over the space scores on average.
// Inputs: a question (family and answer). Outputs: the space (null when it is open: a free-text
// answer of no known vocabulary) and the chance. Invariant: the chance is computed by the same
// checker that scores answers, never assumed to be 1 / |space|.
import { checkAnswer, type Answer } from './answers';
import { colourFamily } from './answer-read';
import { SIGN_WORDS } from './furnish';
import { TARGET_CATEGORIES, type QuestionFamily } from './questions';
import { COLOR_NAMES } from './room';

/** Counts a number question may have as its answer space. */
export const COUNT_SPACE = ['0', '1', '2', '3', '4', '5'];

export function answerSpace(q: { family: QuestionFamily; answer: Answer }): string[] | null {
  const a = q.answer;
  if (a.type === 'choice') return [...a.choices];
  if (a.type === 'yesno') return ['yes', 'no'];
  if (a.type === 'number') return a.correct <= 5 ? [...COUNT_SPACE] : Array.from({ length: a.correct + 1 }, (_, i) => String(i));
  if (q.family === 'sign') return SIGN_WORDS.map((w) => w.toLowerCase());
  if (colourFamily(a.correct)) return Object.keys(COLOR_NAMES).includes(a.correct) ? Object.keys(COLOR_NAMES) : null;
  if ((TARGET_CATEGORIES as readonly string[]).includes(a.correct)) return [...TARGET_CATEGORIES];
  return null;
}

/** Expected accuracy (0..1) of a uniform guess over the question's answer space; 0 when the space is open. */
export function chanceOf(q: { family: QuestionFamily; answer: Answer }): number {
  const space = answerSpace(q);
  if (!space?.length) return 0;
  return space.filter((s) => checkAnswer(q.answer, s)).length / space.length;
}

/** Mean chance of a set of questions (0 for an empty set). */
export function setChance(qs: readonly { family: QuestionFamily; answer: Answer }[]): number {
  return qs.length ? qs.reduce((s, q) => s + chanceOf(q), 0) / qs.length : 0;
}
