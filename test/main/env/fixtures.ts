// Test fixtures for the episode: a tiny test task built once per process (32x32 photos, CPU
// grader without LPIPS) and PNG-free image builders whose bytes name what was asked for.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Grader } from '../../../src/main/grader/grader';
import { loadTask, type LoadedTask } from '../../../src/main/tasks/load';
import { buildTestTask } from '../../helpers/test-task';
import type { EnvImages } from '../../../src/main/kinds/splatbench/images';

export const TEST_SIZE = 32;

let built: Promise<{ tasksDir: string; grader: Grader }> | undefined;

/** The test tasks folder and a CPU grader (LPIPS off), built once. */
export function testTasks(): Promise<{ tasksDir: string; grader: Grader }> {
  built ??= (async () => {
    const grader = await Grader.create({ lpipsDir: null });
    const tasksDir = join(mkdtempSync(join(tmpdir(), 'splatlab-env-')), 'tasks');
    await buildTestTask(tasksDir, { size: TEST_SIZE, grader });
    return { tasksDir, grader };
  })();
  return built;
}

export async function testTask(id: string): Promise<LoadedTask> {
  const { tasksDir } = await testTasks();
  return loadTask(id, { tasksDir });
}

const tag = (s: string): Uint8Array => new TextEncoder().encode(s);

export const fakeImages: EnvImages = {
  referenceSheet: (_task, views) => tag(`refs:${views ? views.join(',') : 'all'}`),
  renderViewsSheet: (rows) => tag(`views:${rows.map((r) => r.view.name).join(',')}`),
  renderAngleImage: (render, label) => tag(`angle:${render.width}:${label}`),
};

export function tmpLog(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'splatlab-log-')), name);
}
