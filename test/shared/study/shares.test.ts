// Task shares (src/shared/study/shares.ts): the balanced incomplete block draw the issue asks for.
// 45 tasks (15 objects x build, reassembly, one-shot), k = 6, 40 seeded participants: every task
// played 5 or 6 times, no share holds two modes of one object, pairs spread evenly, same seed
// same plan.
import { describe, expect, it } from 'vitest';
import { participantShare, shareBlocks, sharePlan, shareProblem, shareWarnings, taskObject } from '../../../src/shared/study/shares';

const objects = ['snowman', 'table', 'mushroom', 'chair', 'tree', 'robot', 'lego', 'nschair', 'hotdog', 'ficus', 'mic', 'drums', 'ignatius', 'caterpillar', 'jade'];
const tasks = objects.flatMap((o) => ['sculpt', 'reassembly', 'oneshot'].map((m) => `${o}__${m}`));

describe('task shares', () => {
  for (const seed of [1, 7, 2024]) {
    it(`45 tasks, k = 6, 40 participants (seed ${seed}): every task 5 or 6 times, no object twice in a share`, () => {
      const blocks = shareBlocks(tasks, 40, { perParticipant: 6, seed, modesTogether: false });
      const count = new Array<number>(tasks.length).fill(0);
      for (const b of blocks) {
        expect(new Set(b).size).toBe(6);
        expect(new Set(b.map((i) => taskObject(tasks[i]))).size).toBe(6);
        for (const i of b) count[i] += 1;
      }
      expect(Math.min(...count)).toBeGreaterThanOrEqual(5);
      expect(Math.max(...count)).toBeLessThanOrEqual(6);
      const plan = sharePlan(tasks, 40, { perParticipant: 6, seed, modesTogether: false });
      expect(plan.taskRange).toEqual([Math.min(...count), Math.max(...count)]);
      expect(plan.expected).toBeCloseTo((40 * 6) / 45, 12);
      // 40 shares x 15 pairs = 600 meetings over 45*44/2 - 45 = 945 allowed pairs: none meets more than twice.
      expect(plan.pairRange[1]).toBeLessThanOrEqual(2);
    });
  }

  it('is reproducible and prefix-stable: a participant\'s share depends on the seed and its index only', () => {
    const s = { perParticipant: 6, seed: 9, modesTogether: false };
    expect(shareBlocks(tasks, 12, s)).toEqual(shareBlocks(tasks, 12, s));
    expect(shareBlocks(tasks, 30, s).slice(0, 12)).toEqual(shareBlocks(tasks, 12, s));
    expect(participantShare(tasks, 11, s)).toEqual(shareBlocks(tasks, 12, s)[11].map((i) => tasks[i]));
    expect(shareBlocks(tasks, 12, { ...s, seed: 10 })).not.toEqual(shareBlocks(tasks, 12, s));
  });

  it('balances tasks at every whole round and pairs over two: 6 tasks, k = 3', () => {
    const six = ['a__x', 'b__x', 'c__x', 'd__x', 'e__x', 'f__x'];
    for (const seed of [1, 2, 3]) {
      expect(sharePlan(six, 10, { perParticipant: 3, seed, modesTogether: false }).taskRange).toEqual([5, 5]);
      // 20 shares of 3 from 6: every pair meets exactly 4 times (a twice-repeated BIBD(6, 3, 2)).
      const plan = sharePlan(six, 20, { perParticipant: 3, seed, modesTogether: false });
      expect(plan.taskRange).toEqual([10, 10]);
      expect(plan.pairRange).toEqual([4, 4]);
    }
  });

  it('lets modes of one object meet only when asked', () => {
    const few = ['a__sculpt', 'a__reassembly', 'b__sculpt', 'b__reassembly'];
    expect(shareProblem(few, { perParticipant: 3, modesTogether: false })).toMatch(/cover 2 objects/);
    expect(() => shareBlocks(few, 1, { perParticipant: 3, seed: 1, modesTogether: false })).toThrow(/cover 2 objects/);
    const together = shareBlocks(few, 4, { perParticipant: 3, seed: 1, modesTogether: true });
    expect(together.every((b) => b.length === 3)).toBe(true);
    expect(shareProblem(few, { perParticipant: 5, modesTogether: true })).toMatch(/has 4/);
  });

  it('warns per task below the minimum', () => {
    expect(shareWarnings(new Map([['a', 3], ['b', 1]]), ['a', 'b', 'c'], 2)).toEqual([
      'b: 1 counted participant, fewer than the study\'s minimum of 2',
      'c: 0 counted participants, fewer than the study\'s minimum of 2',
    ]);
    expect(shareWarnings(new Map(), ['a'], 0)).toEqual([]);
  });
});
