// The suite's order (test/helpers/slow-first.ts): every file on the slow list exists (a renamed
// file would silently fall off it and could end up last again), and the sequencer starts the
// listed files first, in list order, keeping vitest's order for the rest. The list of files that
// keep a module graph of their own (test/helpers/isolated-files.ts) names real files too: a renamed
// one would silently join the shared graph.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import { SLOW_FILES, SlowFirstSequencer } from '../helpers/slow-first';
import { ISOLATED_FILES } from '../helpers/isolated-files';

describe('slow files first', () => {
  it('lists only files that exist, once each', () => {
    expect(SLOW_FILES.filter((f) => !existsSync(join(process.cwd(), f)))).toEqual([]);
    expect(new Set(SLOW_FILES).size).toBe(SLOW_FILES.length);
  });

  it('keeps a graph of their own only for files that exist, once each', () => {
    expect(ISOLATED_FILES.filter((f) => !existsSync(join(process.cwd(), f)))).toEqual([]);
    expect(new Set(ISOLATED_FILES).size).toBe(ISOLATED_FILES.length);
  });

  it('starts the listed files first, in list order, and keeps the order of the rest', async () => {
    const spec = (path: string): TestSpecification => ({ moduleId: join(process.cwd(), path), project: { name: 'node', config: { sequence: { groupOrder: 0 }, isolate: true } } }) as unknown as TestSpecification;
    const files = ['test/a.test.ts', SLOW_FILES[2], 'test/b.test.ts', SLOW_FILES[0], 'test/c.test.ts'].map(spec);
    const cache = { getFileTestResults: () => undefined, getFileStats: () => undefined };
    const sequencer = new SlowFirstSequencer({ cache, config: { root: process.cwd() } } as never);
    const sorted = await sequencer.sort(files);
    expect(sorted.map((f) => f.moduleId.slice(process.cwd().length + 1))).toEqual([SLOW_FILES[0], SLOW_FILES[2], 'test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts']);
  });
});
