// The mutation sample (test/mutation/sample.ts, docs/MUTATION.md) must be reproducible: the same
// sources give the same lines whatever the order of the file list, a line's membership depends on
// its own text, not its position, and the census (100 %) keeps every code line.
import { describe, expect, it } from 'vitest';
import { lineSampled, sampledLines } from '../mutation/sample';

const source = ['// header', '', 'const a = 1;', 'if (a > 0) f();', 'return a + 2;', 'const a = 1;', '  x = y * 3;'].join('\n');

describe('mutation line sample', () => {
  it('keeps every code line at 100 % and none at 0 %', () => {
    expect(sampledLines('f.ts', source, 100)).toEqual([3, 4, 5, 6, 7]);
    expect(sampledLines('f.ts', source, 0)).toEqual([]);
  });

  it('decides by file, text and occurrence, not by position', () => {
    const shifted = `\n\n${source}`;
    const at = (lines: number[], offset: number): number[] => lines.map((l) => l - offset);
    for (const percent of [10, 30, 50, 70]) {
      expect(at(sampledLines('f.ts', shifted, percent), 2)).toEqual(sampledLines('f.ts', source, percent));
    }
  });

  it('is the same on every call and differs between files', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `x${i} = ${i};`);
    const a = lines.filter((t) => lineSampled('a.ts', t, 0, 25));
    expect(lines.filter((t) => lineSampled('a.ts', t, 0, 25))).toEqual(a);
    expect(lines.filter((t) => lineSampled('b.ts', t, 0, 25))).not.toEqual(a);
    expect(a.length).toBeGreaterThan(60);
    expect(a.length).toBeLessThan(140);
  });

  it('grows monotonically with the percentage', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `y${i}();`);
    const at10 = lines.filter((t) => lineSampled('c.ts', t, 0, 10));
    const at20 = lines.filter((t) => lineSampled('c.ts', t, 0, 20));
    expect(at10.every((t) => at20.includes(t))).toBe(true);
  });
});
