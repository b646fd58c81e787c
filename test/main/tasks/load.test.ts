// Task loading and listing against the built test task: contents, public summaries, and the
// one-line errors for an unknown id, a missing photo and a camera count mismatch.
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listTasks, loadTask, scanTasks, TaskLoadError } from '../../../src/main/tasks/load';
import { builtInTasksDir, resolveTasksDir } from '../../../src/main/tasks/paths';
import { TEST_TASK_IDS, type TestTask } from '../../helpers/test-task';
import { repoRoot } from '../../../src/main/io/data-dir';
import { FIXTURE_SIZE, fixtureTask } from './fixture';

let built: TestTask;
beforeAll(async () => {
  built = (await fixtureTask()).task;
});

/** A copy of the built tasks folder that a test may break. */
function scratch(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'splatlab-broken-')), 'tasks');
  cpSync(built.tasksDir, dir, { recursive: true });
  return dir;
}

describe('loadTask', () => {
  it('loads the reassembly task: views, masks, anchors and the scrambled start', async () => {
    const t = await loadTask(TEST_TASK_IDS.reassembly, { tasksDir: built.tasksDir });
    expect(t.spec.kind).toBe('reassembly');
    expect(t.reference.map((v) => v.name)).toEqual(['V0', 'V1', 'V2', 'V3', 'V4', 'V5', 'V6', 'V7']);
    expect(t.heldout.map((v) => v.name)).toEqual(['H0', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7']);
    expect(t.reference[6]).toMatchObject({ azimuth: 30, elevation: 65 });
    const v = t.reference[0];
    expect(v.photo.width).toBe(FIXTURE_SIZE);
    expect(v.mask).toHaveLength(FIXTURE_SIZE * FIXTURE_SIZE);
    expect(v.mask.some((m) => m > 0.5)).toBe(true);
    expect(v.mask.some((m) => m < 0.5)).toBe(true);
    expect(t.anchors.fit.psnr).toBeGreaterThan(t.anchors.empty.psnr);
    expect(t.init).toHaveLength(12);
    expect(new Set(t.init?.map((r) => r.group))).toEqual(new Set(['part_1', 'part_2']));
    t.init?.forEach((r, i) => {
      expect(r.id).toBe(i);
      for (let k = 0; k < 3; k++) expect(r.pos[k]).toBeCloseTo(built.init[i].pos[k], 6);
    });
    const sculpt = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir });
    expect(sculpt.init).toBeNull();
    const oneshot = await loadTask(TEST_TASK_IDS.oneshot, { tasksDir: built.tasksDir });
    expect(oneshot.spec).toMatchObject({ kind: 'oneshot', max_tool_calls: 1, max_renders: 0 });
  });

  it('names the known tasks when the id is unknown', async () => {
    await expect(loadTask('nope', { tasksDir: built.tasksDir })).rejects.toThrow(
      "unknown task 'nope' in " + built.tasksDir + ' (known: test__oneshot, test__reassembly, test__sculpt)',
    );
  });

  it('reports a missing photo and a camera count mismatch in one line', async () => {
    const dir = scratch();
    const obj = join(dir, 'objects', 'test');
    rmSync(join(obj, 'heldout', 'H3.png'));
    const err = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskLoadError);
    expect((err as Error).message).toBe(
      `task test__sculpt: missing photo ${join(obj, 'heldout', 'H3.png')} (cameras.json lists 8 heldout cameras, heldout/ holds 7 photos)`,
    );

    const dir2 = scratch();
    const obj2 = join(dir2, 'objects', 'test');
    cpSync(join(obj2, 'ref', 'V0.png'), join(obj2, 'ref', 'V8.png'));
    await expect(loadTask(TEST_TASK_IDS.sculpt, { tasksDir: dir2 })).rejects.toThrow(
      'task test__sculpt: camera count mismatch: cameras.json lists 8 reference cameras, ref/ holds 9 photos (no camera for V8)',
    );
  });

  it('names a bad spec field and a missing anchors file', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'test__sculpt.json'), JSON.stringify({ task_id: 'test__sculpt', kind: 'sculpt', object: 'test', max_gaussians: 'many' }));
    await expect(loadTask(TEST_TASK_IDS.sculpt, { tasksDir: dir })).rejects.toThrow(/^task test__sculpt: .*test__sculpt.json: max_gaussians: /);
    rmSync(join(dir, 'objects', 'test', 'anchors.json'));
    await expect(loadTask(TEST_TASK_IDS.oneshot, { tasksDir: dir })).rejects.toThrow(/^task test__oneshot: missing .*anchors.json$/);
  });
});

describe('listTasks', () => {
  it('returns public summaries only, sorted, and skips broken tasks', async () => {
    const list = await listTasks(built.tasksDir);
    expect(list.map((t) => t.id)).toEqual(['test__oneshot', 'test__reassembly', 'test__sculpt']);
    const text = JSON.stringify(list);
    for (const secret of ['H0', 'heldout', 'anchors', 'psnr', 'fit', 'init_npz', 'world_to_camera']) expect(text).not.toContain(secret);
    expect(list[1]).toMatchObject({ kind: 'reassembly', startsFromInit: true, budgets: { maxGaussians: 300, maxToolCalls: 40, maxRenders: 16 } });
    expect(list[0].referenceViews?.[7]).toEqual({ name: 'V7', azimuth: 210, elevation: 65 });

    const dir = scratch();
    writeFileSync(join(dir, 'broken.json'), '{');
    const scan = scanTasks(dir);
    expect(scan.tasks).toHaveLength(3);
    expect(scan.problems).toHaveLength(1);
    expect(scan.problems[0]).toMatch(/^task broken: .*broken.json is not valid JSON/);
  });
});

describe('resolveTasksDir', () => {
  it('prefers the option, then SPLATLAB_TASKS_DIR, then <lab home>/tasks over the built-in tasks/ at the repo root', () => {
    expect(resolveTasksDir('/x/y', { SPLATLAB_TASKS_DIR: '/a' })).toBe('/x/y');
    expect(resolveTasksDir(undefined, { SPLATLAB_TASKS_DIR: '/a' })).toBe('/a');
    expect(resolveTasksDir(undefined, { SPLATLAB_HOME: '/h' })).toBe('/h/tasks');
    const root = repoRoot();
    expect(builtInTasksDir()).toBe(join(root, 'tasks'));
    expect(existsSync(join(root, 'package.json'))).toBe(true);
  });
});
