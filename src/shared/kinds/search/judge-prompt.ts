// The E3VS judge's pinned prompt (after OpenEQA's LLM-Match, as E3VS-Bench uses it): the judge
// sees the question, the ground-truth answer, the prediction, and two images (the agent's end
// view and the goal view), with few-shot examples, and marks 5 (correct) or 1 (incorrect).
// Inputs: question, answer, response. Outputs: the prompt text; its hash; marks parsed.
// Invariant: the template and the examples are constants, so the hash names the exact prompt; a
// judgement is stored with it and with the hashes of the two images it saw.
import { fnv1aHex } from '../../math/hash';
import { fillJudgePrompt, JUDGE_QUERY_LINES } from './answers';

export const E3VS_JUDGE_SYSTEM = 'You are an AI assistant who evaluates answers to questions about a 3D scene. You mark exactly as instructed.';

/** Few-shot examples: (question, answer, response, mark), covering synonyms, shades, hedges and misses. */
export const JUDGE_EXAMPLES: readonly { question: string; answer: string; response: string; mark: 1 | 5 }[] = [
  { question: 'What colour is the mug on the shelf?', answer: 'green (also correct: lime)', response: 'It looks light green.', mark: 5 },
  { question: 'What object is inside the bin?', answer: 'ball (also correct: sphere, orb)', response: 'a small red sphere', mark: 5 },
  { question: 'How many objects stand directly on the table?', answer: '3', response: 'two or three', mark: 1 },
  { question: 'What word is printed on the sign on the west wall?', answer: 'exit', response: 'EXIT', mark: 5 },
  { question: 'What is on top of the blue cube?', answer: 'cone (also correct: traffic cone)', response: 'a cylinder', mark: 1 },
  { question: 'Is the red ball bigger than the yellow cube?', answer: 'no', response: 'I cannot tell from here.', mark: 1 },
];

const HEAD = [
  'You will be given a question about a 3D scene, the correct answer, and a response to evaluate.',
  'Two images come with the text: the FIRST is the view the agent stopped at (the end image), the SECOND is a view from which the question can be answered (the goal image).',
  'Use the images only to understand the question and the scene; the correct answer is the ground truth.',
  'Mark the response 5 if it gives the correct answer (synonyms, shades of the same colour, and extra words that do not contradict it count as correct).',
  'Mark it 1 if it is wrong, names several answers, refuses, or does not answer.',
  'Output only "Your mark: 5" or "Your mark: 1".',
  '',
  'Examples:',
];

/** The pinned template; {question}, {answer} and {response} are filled per episode. */
export const E3VS_JUDGE_PROMPT = [
  ...HEAD,
  ...JUDGE_EXAMPLES.flatMap((e) => ['', `Question: ${e.question}`, `Answer: ${e.answer}`, `Response: ${e.response}`, `Your mark: ${e.mark}`]),
  '',
  'Now mark this one.',
  '',
  ...JUDGE_QUERY_LINES,
].join('\n');

export function e3vsJudgePrompt(question: string, answer: string, response: string): string {
  return fillJudgePrompt(E3VS_JUDGE_PROMPT, question, answer, response);
}

/** FNV-1a (32 bit, hex) of bytes: the hash stored for each image a judgement saw. */
export function bytesHash(data: Uint8Array): string {
  return fnv1aHex(data);
}
