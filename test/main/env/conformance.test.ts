// The conformance check passes the test tasks and catches a broken one. (Every committed task is
// checked by conformance-committed-a/b.test.ts, in two halves that run side by side.)
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
