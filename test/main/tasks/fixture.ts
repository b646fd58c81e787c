// Shared fixture for task, grader and image tests: the test task built once per test file in a
// temporary folder at 64x64 (fast), with a CPU grader; LPIPS on when the weights are found.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Grader } from '../../../src/main/grader/grader';
import { buildTestTask, type TestTask } from '../../helpers/test-task';

export const FIXTURE_SIZE = 64;

let built: Promise<{ task: TestTask; grader: Grader }> | undefined;

export function fixtureTask(): Promise<{ task: TestTask; grader: Grader }> {
  built ??= (async () => {
    const grader = await Grader.create();
    const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-tasks-')), 'tasks');
    return { task: await buildTestTask(tasksDir, { size: FIXTURE_SIZE, grader }), grader };
  })();
  return built;
}
