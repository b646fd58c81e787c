// Counterbalancing: every order is a permutation, every task takes every position equally often
// over a cycle, and (even n, or odd n with the mirrored half) every ordered pair of neighbours
// occurs equally often.
import { describe, expect, it } from 'vitest';
import { participantOrder, williamsSquare } from '../../../src/shared/study/order';

function positionCounts(rows: number[][], n: number): number[][] {
  const counts = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const row of rows) row.forEach((task, pos) => (counts[task][pos] += 1));
  return counts;
}

function neighbourCounts(rows: number[][]): Map<string, number> {
  const m = new Map<string, number>();
  for (const row of rows) for (let i = 1; i < row.length; i++) m.set(`${row[i - 1]}>${row[i]}`, (m.get(`${row[i - 1]}>${row[i]}`) ?? 0) + 1);
  return m;
}

describe('williamsSquare', () => {
  it('gives the textbook square for 4 tasks', () => {
    expect(williamsSquare(4)).toEqual([
      [0, 1, 3, 2],
      [1, 2, 0, 3],
      [2, 3, 1, 0],
      [3, 0, 2, 1],
    ]);
  });

  for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`is balanced for ${n} tasks`, () => {
      const rows = williamsSquare(n);
      expect(rows.length).toBe(n % 2 === 0 ? n : 2 * n);
      for (const row of rows) expect([...row].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      const per = rows.length / n;
      for (const counts of positionCounts(rows, n)) expect(counts).toEqual(new Array<number>(n).fill(per));
      const pairs = neighbourCounts(rows);
      if (n > 1) {
        expect(pairs.size).toBe(n * (n - 1));
        expect(new Set(pairs.values())).toEqual(new Set([n % 2 === 0 ? 1 : 2]));
      }
    });
  }

  it('refuses a non-positive size', () => {
    expect(() => williamsSquare(0)).toThrow(/positive integer/);
  });
});

describe('participantOrder', () => {
  const tasks = ['a', 'b', 'c', 'd'];
  it('keeps the base order when fixed', () => {
    expect(participantOrder(tasks, 3, 'fixed')).toEqual(tasks);
  });
  it('cycles through the square by participant index', () => {
    expect(participantOrder(tasks, 0, 'counterbalanced')).toEqual(['a', 'b', 'd', 'c']);
    expect(participantOrder(tasks, 1, 'counterbalanced')).toEqual(['b', 'c', 'a', 'd']);
    expect(participantOrder(tasks, 4, 'counterbalanced')).toEqual(['a', 'b', 'd', 'c']);
    expect(participantOrder(['x', 'y', 'z'], 3, 'counterbalanced')).toEqual(['z', 'y', 'x']);
  });
});
