// Every committed task in tasks/ conforms (docs/TASKS.md): every task of the kinds other than
// search and a seeded sample of the 500-odd search tasks (the whole search set is `splatlab check`
// / `splatlab search check`'s). The list is cut into halves by position so that two test files
// (conformance-committed-a/b.test.ts) check them side by side on the two workers; together the
// halves are the whole list. Input: which half. Output: one test over that half's tasks.
import { expect, it } from 'vitest';
import { checkTask } from '../../../src/main/episodes/conformance';
import { Grader, graderDevice } from '../../../src/main/grader/grader';
import { acquireGpu } from '../../../src/main/gpu/device';
import { taskIds } from '../../../src/main/tasks/load';
import { builtInTasksDir } from '../../../src/main/tasks/paths';
import { mulberry32 } from '../../../src/shared/math/random';

export const HALVES = 2;

/** The committed tasks the suite checks, in a fixed order. */
export function committedSample(dir: string): { ids: string[]; all: number } {
  const all = taskIds(dir);
  const search = all.filter((id) => id.startsWith('search__'));
  return { ids: [...all.filter((id) => !id.startsWith('search__')), ...mulberry32(26).shuffle([...search]).slice(0, 4)], all: all.length };
}

/** Registers the test over half `half` (0-based) of the sample: ids at positions half, half + HALVES, ... */
export function checkCommittedHalf(half: number): void {
  const dir = builtInTasksDir();
  const { ids, all } = committedSample(dir);
  const mine = ids.filter((_, i) => i % HALVES === half);
  it.skipIf(mine.length === 0)(`checks ${mine.length} of the ${ids.length} sampled of the ${all} committed tasks (half ${half + 1} of ${HALVES})`, async () => {
    // The lab's own choice of grader path (the CPU fast path on SwiftShader, the GPU on hardware).
    const taskGrader = await Grader.create(graderDevice(await acquireGpu()));
    const failures: string[] = [];
    for (const id of mine) {
      const report = await checkTask(id, taskGrader, dir);
      failures.push(...report.problems.map((p) => `${id}: ${p}`));
    }
    expect(failures).toEqual([]);
  }, 600_000);
}
