// Size questions: two unique targets on the same support whose volumes differ by at least 1.5x get
// one question, answered by the volumes: open by default ("which is bigger", free text the judge
// scores), a yes/no in the closed form; close volumes get none (the size loop survived the search
// mutation run, docs/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { generateQuestions } from '../../../../src/shared/kinds/search/questions';
import { emptyRoom, target } from './rooms';

const sizeQuestions = (bSide: number, closed = false): unknown[] =>
  generateQuestions(emptyRoom([target('a', [1, 1, 0.1], 0.2, 'red'), target('b', [3, 3, 0.2], bSide, 'blue')]), { closed }).filter((q) => q.family === 'size');

describe('size questions', () => {
  it('ask which target is bigger when the volumes differ clearly (open by default)', () => {
    expect(sizeQuestions(0.4)).toEqual([
      { id: 'test-room/size-1', family: 'size', text: 'Which is bigger, the red cube or the blue cube?', answer: { type: 'text', correct: 'the blue cube', synonyms: ['blue cube'] }, needs: ['a', 'b'] },
    ]);
    expect(sizeQuestions(0.1)).toEqual([
      { id: 'test-room/size-1', family: 'size', text: 'Which is bigger, the red cube or the blue cube?', answer: { type: 'text', correct: 'the red cube', synonyms: ['red cube'] }, needs: ['a', 'b'] },
    ]);
  });

  it('ask whether one target is bigger in the closed form', () => {
    expect(sizeQuestions(0.4, true)).toEqual([
      { id: 'test-room/size-1', family: 'size', text: 'Is the red cube bigger than the blue cube?', answer: { type: 'yesno', correct: 'no' }, needs: ['a', 'b'] },
    ]);
  });

  it('ask nothing when the volumes are close', () => {
    expect(sizeQuestions(0.21)).toEqual([]);
    expect(sizeQuestions(0.21, true)).toEqual([]);
  });
});
