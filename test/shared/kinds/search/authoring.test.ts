// Room generation, questions with exact answers, BFS over the action graph and the answer balance.
import { describe, expect, it } from 'vitest';
import { balanceAnswers, type SearchEpisode } from '../../../../src/shared/kinds/search/build-tasks';
import { PrimitiveCollider } from '../../../../src/shared/kinds/search/collide';
import { generateRoom } from '../../../../src/shared/kinds/search/generate-room';
import { generateQuestions } from '../../../../src/shared/kinds/search/questions';
import { findNode, roomParts } from '../../../../src/shared/kinds/search/room';
import { SearchRules } from '../../../../src/shared/kinds/search/rules';
import { DEFAULT_MOTION, type Pose } from '../../../../src/shared/kinds/search/pose';
import { RoomVisibility } from '../../../../src/shared/kinds/search/visibility';
import { motionWorld, searchAnswerable } from '../../../../src/shared/kinds/search/world';
import { emptyRoom, target } from './rooms';

describe('room generator and questions', () => {
  it('is deterministic in the seed and keeps every target on its support', () => {
    expect(generateRoom(4)).toEqual(generateRoom(4));
    expect(generateRoom(4)).not.toEqual(generateRoom(5));
    const room = generateRoom(2);
    const targets = room.nodes.filter((n) => n.role === 'target');
    expect(targets.length).toBeGreaterThanOrEqual(7);
    for (const t of targets) expect(t.place).toBeDefined();
  });

  it.each([false, true])('reads every answer off the scene graph (closed form: %s)', (closed) => {
    const room = generateRoom(3);
    const qs = generateQuestions(room, { closed });
    expect(new Set(qs.map((q) => q.family)).size).toBeGreaterThanOrEqual(6);
    // Open questions (the default) hold the count as text ("2"); the closed form as a number.
    const count = (n: number) => (closed ? n : String(n));
    for (const q of qs) {
      if (q.family === 'color') expect(q.answer.correct).toBe(findNode(room, q.needs[0]).color);
      if (q.family === 'shape') expect(q.answer.correct).toBe(findNode(room, q.needs[0]).shape);
      if (q.family === 'count') {
        const support = q.text.includes('table') ? 'table' : 'shelf';
        expect(q.answer.correct).toBe(count(room.nodes.filter((n) => n.place?.relation === 'on' && n.place.of === support).length));
      }
      if (q.family === 'stack') expect(q.answer.correct).toBe(findNode(room, q.needs[0]).category);
      if (!closed) expect(q.answer.type).toBe('text');
    }
  });
});

describe('BFS over the action graph', () => {
  it('finds the shortest path to an answerable view and the rules replay it', () => {
    const room = emptyRoom([target('cube-1', [3, 2, 1], 0.2)]);
    const collider = new PrimitiveCollider(roomParts(room).map((p) => p.part));
    const vis = new RoomVisibility(room);
    const start: Pose = { x: 2, y: 2, z: 1, yaw: 180, pitch: 0 };
    const found = searchAnswerable(motionWorld(collider), start, (p) => vis.answerable(p, ['cube-1']), { maxDepth: 6 });
    // Facing away from a cube 1 m off: five 30-degree turns bring it 30 degrees off the axis,
    // inside the 90-degree frame; no move is needed.
    expect(found?.path.length).toBe(5);
    expect(found?.path.every((a) => a === 'turn_left' || a === 'turn_right')).toBe(true);
    const rules = new SearchRules({ question: 'q', choices: [], start, maxSteps: 25, motion: DEFAULT_MOTION, radius: 0.1, defaultForward: false }, collider);
    for (const a of found!.path) rules.step({ tool: a });
    expect(rules.currentPose()).toEqual(found!.goal);
    expect(vis.answerable(rules.currentPose(), ['cube-1'])).toBe(true);
    expect(searchAnswerable(motionWorld(collider), start, (p) => vis.answerable(p, ['cube-1']), { maxDepth: 4 })).toBeNull();
  });
});

describe('answer balance', () => {
  it('keeps no answer above its share of a family', () => {
    const ep = (i: number, correct: string): SearchEpisode => ({
      id: `e${i}`, question: { id: `q${i}`, family: 'color', text: 't', answer: { type: 'text', correct, synonyms: [] }, needs: ['x'] },
      start: { x: 0, y: 0, z: 0, yaw: 0, pitch: 0 }, goal: { x: 0, y: 0, z: 0, yaw: 0, pitch: 0 }, answerable: [], distance: 3,
    });
    const eps = ['red', 'red', 'red', 'red', 'red', 'red', 'blue', 'green', 'blue'].map((c, i) => ep(i, c));
    const kept = balanceAnswers(eps, 1 / 3);
    expect(kept.filter((e) => e.question.answer.correct === 'red')).toHaveLength(3);
    expect(kept).toHaveLength(6);
  });
});
