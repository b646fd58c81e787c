// Relation scores: accuracy cells, intervals, chance, confusion matrices.
import { describe, expect, it } from 'vitest';
import { CHANCE, summariseRelation, wilson, type RelationTrial } from '../../../../src/shared/kinds/relation/results';

const t = (over: Partial<RelationTrial>): RelationTrial => ({
  who: 'human', answerer: 'p1', environment: 'forest', triple: 'tent-bear', task: 'ego', truth: 'left', answer: 'left', rtMs: 1000, ...over,
});

describe('wilson', () => {
  it('matches the textbook interval', () => {
    const [lo, hi] = wilson(8, 10)!;
    expect(lo).toBeCloseTo(0.4902, 3);
    expect(hi).toBeCloseTo(0.9433, 3);
    expect(wilson(0, 0)).toBeNull();
  });
});

describe('summariseRelation', () => {
  const trials = [
    t({}), t({ answer: 'right' }), t({ task: 'allo', truth: 'front', answer: 'front', rtMs: 3000 }),
    t({ environment: 'city', triple: 'hydrant-taxi', answer: null, rtMs: null }),
    t({ who: 'model', answerer: 'm1', answer: 'back' }),
  ];
  const s = summariseRelation(trials);
  it('scores per task, environment and triple, humans and models apart', () => {
    expect(s.chance).toBe(CHANCE);
    expect(CHANCE).toBe(0.25);
    const get = (group: string, who = 'human') => s.cells.find((c) => c.group === group && c.who === who)!;
    expect(get('all')).toMatchObject({ n: 4, correct: 2, accuracy: 0.5, medianRtMs: 1000 });
    expect(get('ego')).toMatchObject({ n: 3, correct: 1 });
    expect(get('allo')).toMatchObject({ n: 1, correct: 1, medianRtMs: 3000 });
    expect(get('city/hydrant-taxi')).toMatchObject({ n: 1, correct: 0 });
    expect(get('forest')).toMatchObject({ n: 3, correct: 2 });
    expect(get('all', 'model')).toMatchObject({ n: 1, correct: 0 });
    const all = get('all');
    expect(all.low!).toBeLessThan(0.5);
    expect(all.high!).toBeGreaterThan(0.5);
  });
  it('counts confusions, unanswered trials under none', () => {
    expect(s.confusion.human.ego.left).toEqual({ front: 0, back: 0, left: 1, right: 1, none: 1 });
    expect(s.confusion.human.allo.front.front).toBe(1);
    expect(s.confusion.model.ego.left.back).toBe(1);
  });
});
