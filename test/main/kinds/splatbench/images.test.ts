// The player's PNGs: reference sheet (all or chosen views), render_views sheet (photo | render |
// difference per view) and render_angle image decode to the expected layouts; only reference
// views appear.
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceSheet, renderAngleImage, renderViewsSheet, viewLabel } from '../../../../src/main/kinds/splatbench/images';
import { publicViews } from '../../../../src/main/kinds/splatbench/public';
import { decodePng } from '../../../../src/main/io/png';
import { loadTask, type LoadedTask } from '../../../../src/main/tasks/load';
import { TEST_TASK_IDS, type TestTask } from '../../../helpers/test-task';
import type { Grader } from '../../../../src/main/grader/grader';
import { orbitCamera } from '../../../../src/shared/camera/orbit';
import { packRecords } from '../../../../src/shared/scene/records';
import { FIXTURE_SIZE, fixtureTask } from '../../tasks/fixture';

let built: TestTask;
let grader: Grader;
let task: LoadedTask;
beforeAll(async () => {
  ({ task: built, grader } = await fixtureTask());
  task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir });
});

describe('env images', () => {
  it('draws a task\'s reference sheet and public views once per loaded task and selection', async () => {
    expect(referenceSheet(task)).toBe(referenceSheet(task));
    expect(referenceSheet(task, [0, 6])).toBe(referenceSheet(task, [0, 6]));
    expect(referenceSheet(task, [0, 6])).not.toBe(referenceSheet(task));
    expect(publicViews(task)).toBe(publicViews(task));
    // A reloaded task is a new object: drawn again, to the same bytes.
    const again = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir });
    expect(referenceSheet(again)).not.toBe(referenceSheet(task));
    expect(referenceSheet(again)).toEqual(referenceSheet(task));
    expect(publicViews(again)).toEqual(publicViews(task));
  });

  it('labels views with their angles', () => {
    expect(viewLabel({ name: 'V0', azimuth: 0, elevation: 20 })).toBe('V0 az 0° el 20°');
    expect(viewLabel({ name: 'cap3' })).toBe('cap3');
  });

  it('builds the reference sheet with four columns, or only the chosen views', () => {
    const all = decodePng(referenceSheet(task));
    const two = decodePng(referenceSheet(task, [0, 6]));
    expect(all.channels).toBe(3);
    expect(all.width).toBeGreaterThan(4 * FIXTURE_SIZE);
    expect(all.width).toBeLessThan(5 * FIXTURE_SIZE);
    expect(two.width).toBeGreaterThan(2 * FIXTURE_SIZE);
    expect(two.width).toBeLessThan(3 * FIXTURE_SIZE);
    expect(all.height).toBeGreaterThan(2 * FIXTURE_SIZE);
    expect(two.height).toBeGreaterThan(FIXTURE_SIZE);
    expect(two.height).toBeLessThan(2 * FIXTURE_SIZE);
    expect(() => referenceSheet(task, [42])).toThrow('no reference views selected');
  });

  it('lays out photo | render | difference per view, two views per row beyond four', async () => {
    const views = task.reference.slice(0, 2);
    const metrics = await grader.compareViews(packRecords(built.init), views);
    const sheet = decodePng(renderViewsSheet(metrics.map((m, i) => ({ view: views[i], metrics: m }))));
    expect(sheet.width).toBeGreaterThan(3 * FIXTURE_SIZE);
    expect(sheet.width).toBeLessThan(4 * FIXTURE_SIZE);
    const eight = await grader.compareViews(packRecords(built.init), task.reference);
    const big = decodePng(renderViewsSheet(eight.map((m, i) => ({ view: task.reference[i], metrics: m }))));
    expect(big.width).toBeGreaterThan(6 * FIXTURE_SIZE);
    expect(big.height).toBeGreaterThan(1.8 * sheet.height);
    expect(() => renderViewsSheet([])).toThrow('no views');
  });

  it('renders one labelled image for any angle', async () => {
    const camera = orbitCamera({ azimuth: 45, elevation: 30, width: FIXTURE_SIZE, height: FIXTURE_SIZE });
    const [render] = await grader.renderViews(packRecords(built.truth), [camera]);
    const png = decodePng(renderAngleImage(render, 'azimuth 45, elevation 30', camera));
    expect(png.width).toBe(FIXTURE_SIZE + 8);
    expect(png.height).toBeGreaterThan(FIXTURE_SIZE + 8);
  });
});
