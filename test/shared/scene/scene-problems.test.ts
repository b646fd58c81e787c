// sceneProblems, the scene invariant the property test relies on, finds each kind of broken scene
// exactly at its limits (the mutation sample found the id and colour bounds unguarded: the
// property test only ever shows it valid scenes; docs/MUTATION.md).
import { describe, expect, it } from 'vitest';
import { sceneProblems, type GaussianRecord } from '../../../src/shared/scene/records';
import { OPACITY_MAX, OPACITY_MIN, POS_LIMIT, SCALE_MAX, SCALE_MIN } from '../../../src/shared/scene/policy';

const rec = (id: number, over: Partial<GaussianRecord> = {}): GaussianRecord => ({
  id, pos: [0, 0, 0], scale: [0.1, 0.1, 0.1], quat: [1, 0, 0, 0], color: [0.5, 0.5, 0.5], opacity: 1, ...over,
});

describe('sceneProblems', () => {
  it('accepts a valid scene, values exactly at every limit included', () => {
    const edge = rec(1, { pos: [POS_LIMIT, -POS_LIMIT, 0], scale: [SCALE_MIN, SCALE_MAX, SCALE_MIN], color: [0, 1, 1], opacity: OPACITY_MIN });
    expect(sceneProblems([rec(0, { opacity: OPACITY_MAX }), edge], 2)).toEqual([]);
  });

  it('refuses ids at or above nextId, duplicates and ids out of order', () => {
    expect(sceneProblems([rec(0), rec(2)], 2)).toEqual(['id 2 outside [0, 2)']);
    expect(sceneProblems([rec(0), rec(1)], 1)).toEqual(['id 1 outside [0, 1)']);
    expect(sceneProblems([rec(-1)], 1)).toEqual(['id -1 outside [0, 1)', 'id -1 out of order']);
    expect(sceneProblems([rec(1), rec(1)], 3)).toEqual(['duplicate id 1', 'id 1 out of order']);
    expect(sceneProblems([rec(2), rec(1)], 3)).toEqual(['id 1 out of order']);
  });

  it('refuses every value just outside its range', () => {
    const one = (over: Partial<GaussianRecord>): string[] => sceneProblems([rec(0, over)], 1);
    expect(one({ pos: [POS_LIMIT * 1.001, 0, 0] })).toEqual(['id 0: position out of bounds']);
    expect(one({ scale: [SCALE_MIN * 0.99, 0.1, 0.1] })).toEqual(['id 0: scale out of range']);
    expect(one({ scale: [0.1, 0.1, SCALE_MAX * 1.01] })).toEqual(['id 0: scale out of range']);
    expect(one({ opacity: OPACITY_MIN * 0.99 })).toEqual(['id 0: opacity out of range']);
    expect(one({ opacity: 1.01 })).toEqual(['id 0: opacity out of range']);
    expect(one({ color: [0, 1.01, 0] })).toEqual(['id 0: colour out of range']);
    expect(one({ color: [-0.01, 0, 0] })).toEqual(['id 0: colour out of range']);
    expect(one({ color: [NaN, 0, 0] })).toEqual(['id 0: colour out of range']);
    expect(one({ quat: [1, 0.01, 0, 0] })).toEqual(['id 0: quaternion not unit']);
  });
});
