// The conformance check passes the test tasks and catches a broken one.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkTask } from '../../../src/main/episodes/conformance';
import { Grader } from '../../../src/main/grader/grader';
import { buildTestTask, TEST_TASK_IDS } from '../../helpers/test-task';

let tasksDir: string;
let grader: Grader;

beforeAll(async () => {
  grader = await Grader.create({ lpipsDir: null });
  tasksDir = mkdtempSync(join(tmpdir(), 'splatlab-conformance-'));
  await buildTestTask(tasksDir, { size: 32, grader });
});

describe('environment conformance check', () => {
  it.each(Object.values(TEST_TASK_IDS))('accepts %s', async (id) => {
    const report = await checkTask(id, grader, tasksDir);
    expect(report.problems).toEqual([]);
  });

  it('reports a one-shot task with the wrong budgets and an unknown task', async () => {
    const path = join(tasksDir, `${TEST_TASK_IDS.oneshot}.json`);
    const spec = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    writeFileSync(join(tasksDir, 'broken__oneshot.json'), JSON.stringify({ ...spec, task_id: 'broken__oneshot', max_tool_calls: 3 }));
    const report = await checkTask('broken__oneshot', grader, tasksDir);
    expect(report.problems).toContain('a one-shot task must allow 1 call and 0 renders');
    expect((await checkTask('nope', grader, tasksDir)).problems[0]).toMatch(/does not load/);
  });
});

describe('every task in tasks/ conforms', async () => {
  const { resolveTasksDir } = await import('../../../src/main/tasks/paths');
  const { taskIds } = await import('../../../src/main/tasks/load');
  const { acquireGpu } = await import('../../../src/main/gpu/device');
  const { graderDevice } = await import('../../../src/main/grader/grader');
  const { mulberry32 } = await import('../../../src/shared/math/random');
  const dir = resolveTasksDir();
  // Every task of the other kinds and a seeded sample of the 500-odd search tasks: the whole search
  // set is `splatlab check` / `splatlab search check`'s (docs/TASKS.md, search section).
  const all = taskIds(dir);
  const search = all.filter((id) => id.startsWith('search__'));
  const ids = [...all.filter((id) => !id.startsWith('search__')), ...mulberry32(26).shuffle([...search]).slice(0, 4)];
  it.skipIf(ids.length === 0)(`checks ${ids.length} of the ${all.length} committed tasks`, async () => {
    // The lab's own choice of grader path (the CPU fast path on SwiftShader, the GPU on hardware).
    const taskGrader = await Grader.create(graderDevice(await acquireGpu()));
    const failures: string[] = [];
    for (const id of ids) {
      const report = await checkTask(id, taskGrader, dir);
      failures.push(...report.problems.map((p) => `${id}: ${p}`));
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
