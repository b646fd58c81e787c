// The answer checkers of every answer type and the OpenEQA-style judge parser.
import { describe, expect, it } from 'vitest';
import { checkAnswer, parseJudgeMark, promptHash, judgePrompt, type Answer } from '../../../../src/shared/kinds/search/answers';

describe('answer checkers', () => {
  it('text: the answer or a synonym, ignoring case, articles, filler and plurals', () => {
    const a: Answer = { type: 'text', correct: 'red', synonyms: ['scarlet'] };
    expect(checkAnswer(a, 'Red')).toBe(true);
    expect(checkAnswer(a, 'It is red.')).toBe(true);
    expect(checkAnswer(a, 'scarlet')).toBe(true);
    expect(checkAnswer(a, 'red and blue')).toBe(false);
    expect(checkAnswer(a, 'blue')).toBe(false);
    expect(checkAnswer(a, '')).toBe(false);
    const b: Answer = { type: 'text', correct: 'ball', synonyms: ['sphere'] };
    expect(checkAnswer(b, 'a ball')).toBe(true);
    expect(checkAnswer(b, 'balls')).toBe(true);
  });

  it('number: digits or a number word', () => {
    const a: Answer = { type: 'number', correct: 3 };
    expect(checkAnswer(a, '3')).toBe(true);
    expect(checkAnswer(a, 'three')).toBe(true);
    expect(checkAnswer(a, 'There are 3 objects')).toBe(true);
    expect(checkAnswer(a, '4')).toBe(false);
    expect(checkAnswer(a, '3 or 4')).toBe(false);
  });

  it('yes/no and multiple choice (by text or by letter)', () => {
    expect(checkAnswer({ type: 'yesno', correct: 'no' }, 'No, it is smaller')).toBe(true);
    expect(checkAnswer({ type: 'yesno', correct: 'no' }, 'yes')).toBe(false);
    expect(checkAnswer({ type: 'yesno', correct: 'yes' }, 'maybe')).toBe(false);
    const c: Answer = { type: 'choice', choices: ['sphere', 'cube', 'cylinder', 'cone'], correct: 'cylinder' };
    expect(checkAnswer(c, 'Cylinder')).toBe(true);
    expect(checkAnswer(c, 'c')).toBe(true);
    expect(checkAnswer(c, '(C)')).toBe(true);
    expect(checkAnswer(c, 'b')).toBe(false);
    expect(checkAnswer(c, 'pyramid')).toBe(false);
  });
});

describe('judge parser', () => {
  it('reads the mark after the last "Your mark:" and maps it to 100 (s - 1) / 4', () => {
    expect(parseJudgeMark('Your mark: 5')).toEqual({ mark: 5, score: 100 });
    expect(parseJudgeMark('Reasoning...\nYour mark: **3**')).toEqual({ mark: 3, score: 50 });
    expect(parseJudgeMark('your mark: 2\nOn reflection, Your mark: 1')).toEqual({ mark: 1, score: 0 });
    expect(parseJudgeMark('4')).toEqual({ mark: 4, score: 75 });
  });

  it('refuses marks outside 1..5 and text without a mark', () => {
    expect(parseJudgeMark('Your mark: 7')).toBeNull();
    expect(parseJudgeMark('Your mark: 10')).toBeNull();
    expect(parseJudgeMark('I think the answer is right.')).toBeNull();
  });

  it('pins the prompt: filled placeholders and a stable hash', () => {
    const p = judgePrompt('What colour?', 'red', 'crimson');
    expect(p).toContain('Question: What colour?\nAnswer: red\nResponse: crimson\nYour mark:');
    expect(promptHash()).toMatch(/^[0-9a-f]{8}$/);
    expect(promptHash()).toBe(promptHash());
    expect(promptHash('x')).not.toBe(promptHash());
  });
});
