// Issue 35: which scorer scores a search answer. The default questions are open (free text): the
// end record says `judge` (its exact score is provisional until the judge marks it); the closed
// forms (`{ closed: true }`: choices, yes/no, a count) say `exact`. Same ids in both forms.
import { describe, expect, it } from 'vitest';
import { SearchTaskSpecSchema, searchRules } from '../../../../src/shared/kinds/search/kind';
import { searchOutcome } from '../../../../src/shared/kinds/search/outcome';
import { PrimitiveCollider } from '../../../../src/shared/kinds/search/collide';
import { generateQuestions, type Question } from '../../../../src/shared/kinds/search/questions';
import { roomParts } from '../../../../src/shared/kinds/search/room';
import { RoomVisibility } from '../../../../src/shared/kinds/search/visibility';
import { emptyRoom, target } from './rooms';

const room = emptyRoom([target('a', [1, 1, 0.1], 0.2, 'red'), target('b', [3, 3, 0.2], 0.4, 'blue')]);
const pose = { x: 2, y: 2, z: 1.2, yaw: 0, pitch: 0 };

function endOf(q: Question, answer: string) {
  const spec = SearchTaskSpecSchema.parse({ task_id: 'search__t', kind: 'search', room: 'search/rooms/t.json', question: q, start: pose, goal: pose, answerable: [pose], distance: 3 });
  const rules = searchRules(spec, new PrimitiveCollider(roomParts(room).map((p) => p.part)));
  rules.step({ tool: 'stop', args: { answer } });
  return searchOutcome(spec, new RoomVisibility(room), rules);
}

describe('the scorer of a search answer', () => {
  it('is the judge for the default open questions and the exact checker for the closed forms', () => {
    const open = generateQuestions(room), closed = generateQuestions(room, { closed: true });
    expect(open.map((q) => q.id)).toEqual(closed.map((q) => q.id));
    expect(open.every((q) => q.answer.type === 'text')).toBe(true);
    expect(closed.some((q) => q.answer.type !== 'text')).toBe(true);
    const size = open.find((q) => q.family === 'size')!, sizeClosed = closed.find((q) => q.family === 'size')!;
    expect(endOf(size, 'the blue cube')).toMatchObject({ scored_by: 'judge', correct: true });
    expect(endOf(sizeClosed, 'no')).toMatchObject({ scored_by: 'exact', correct: true });
  });
});
