// Builds the test task: a complete task folder for a known 12-Gaussian figure, so tests and the
// episode code can run the whole pipeline without authored objects. Photos are CPU reference
// renders from V0..V7 and H0..H7 (size x size, default 128) with coverage masks, fit.json is a
// perturbed copy of the truth, anchors come from the same grader, and three tasks are written:
// test__sculpt, test__reassembly (init npz = the figure's two groups turned and moved) and
// test__oneshot. Input: a folder (created if missing). Output: the folder's files + a summary.
// Invariant: deterministic for a given size and grader kind; the anchors match what the grader
// measures on the written (8-bit) photos, so the fit grades to exactly 100.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HELDOUT_VIEWS, REFERENCE_VIEWS, type NamedView } from '../../src/shared/camera/views';
import { orbitCamera } from '../../src/shared/camera/orbit';
import { packSplats, type GaussianRecord } from '../../src/shared/scene/gaussian';
import { rasterizeForward } from '../../src/shared/raster/cpu';
import type { CamerasFile, TaskSpec, ViewEntry } from '../../src/shared/task/schema';
import { sceneFileJson } from '../../src/shared/scene/input';
import { perturbedFigure, scrambledFigure, testFigure } from './test-figure';
import { Grader } from '../../src/main/grader/grader';
import { writeSceneNpz, type NpzScene } from '../../src/main/io/npz';
import { encodePng } from '../../src/main/io/png';
import { readCameras, readViews } from '../../src/main/tasks/load';

export const TEST_OBJECT = 'test';
export const TEST_TASK_IDS = { sculpt: 'test__sculpt', reassembly: 'test__reassembly', oneshot: 'test__oneshot' } as const;

export interface TestTaskOptions {
  size?: number; // photo width = height in pixels, default 128
  grader?: Grader; // grader for the anchors; default a CPU grader with the default LPIPS lookup
}

export interface TestTask {
  tasksDir: string;
  taskIds: string[];
  truth: GaussianRecord[];
  fit: GaussianRecord[];
  init: GaussianRecord[];
}

function viewEntries(views: readonly NamedView[], size: number): ViewEntry[] {
  return views.map((v) => ({
    name: v.name,
    azimuth: v.azimuth,
    elevation: v.elevation,
    camera: orbitCamera({ azimuth: v.azimuth, elevation: v.elevation, width: size, height: size }),
  }));
}

/** Writes photo `<name>.png` and coverage mask `<name>_mask.png` of the truth for each view. */
function writePhotos(folder: string, entries: ViewEntry[], truth: GaussianRecord[]): void {
  mkdirSync(folder, { recursive: true });
  const splats = packSplats(truth);
  for (const e of entries) {
    const r = rasterizeForward(splats, e.camera);
    writeFileSync(join(folder, `${e.name}.png`), encodePng({ width: r.width, height: r.height, data: r.rgb }));
    writeFileSync(join(folder, `${e.name}_mask.png`), encodePng({ width: r.width, height: r.height, channels: 1, data: r.alpha }));
  }
}

export function npzSceneFromRecords(records: readonly GaussianRecord[]): NpzScene {
  return {
    count: records.length,
    positions: Float32Array.from(records.flatMap((r) => r.pos)),
    scales: Float32Array.from(records.flatMap((r) => r.scale)),
    quaternions: Float32Array.from(records.flatMap((r) => r.quat)),
    colors: Float32Array.from(records.flatMap((r) => r.color)),
    opacities: Float32Array.from(records.map((r) => r.opacity)),
    groups: records.map((r) => r.group ?? null),
  };
}

function spec(taskId: string, kind: TaskSpec['kind'], over: Partial<TaskSpec> = {}): TaskSpec {
  return { task_id: taskId, kind, object: TEST_OBJECT, max_gaussians: 300, max_tool_calls: 40, max_renders: 16, init_npz: null, ...over };
}

const writeJson = (path: string, value: unknown): void => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** Writes the test task folder under `tasksDir` and returns what it holds. */
export async function buildTestTask(tasksDir: string, opts: TestTaskOptions = {}): Promise<TestTask> {
  const size = opts.size ?? 128;
  const objDir = join(tasksDir, 'objects', TEST_OBJECT);
  mkdirSync(objDir, { recursive: true });
  const truth = testFigure();
  const fit = perturbedFigure();
  const init = scrambledFigure();
  const cameras: CamerasFile = { reference: viewEntries(REFERENCE_VIEWS, size), heldout: viewEntries(HELDOUT_VIEWS, size) };
  writeJson(join(objDir, 'cameras.json'), cameras);
  writePhotos(join(objDir, 'ref'), cameras.reference, truth);
  writePhotos(join(objDir, 'heldout'), cameras.heldout, truth);
  writeJson(join(objDir, 'fit.json'), sceneFileJson(fit));
  writeFileSync(join(objDir, 'init_reassembly.npz'), writeSceneNpz(npzSceneFromRecords(init)));

  // Anchors are measured on the photos as the loader reads them back (8-bit), like any grade.
  const heldout = readViews(objDir, 'heldout', readCameras(objDir, 'test task').heldout, 'test task');
  const grader = opts.grader ?? (await Grader.create());
  try {
    writeJson(join(objDir, 'anchors.json'), await grader.computeAnchors(heldout, packSplats(fit)));
  } finally {
    if (!opts.grader) grader.destroy();
  }

  const specs = [
    spec(TEST_TASK_IDS.sculpt, 'sculpt'),
    spec(TEST_TASK_IDS.reassembly, 'reassembly', { init_npz: `objects/${TEST_OBJECT}/init_reassembly.npz` }),
    spec(TEST_TASK_IDS.oneshot, 'oneshot', { max_tool_calls: 1, max_renders: 0 }),
  ];
  for (const s of specs) writeJson(join(tasksDir, `${s.task_id}.json`), s);
  return { tasksDir, taskIds: specs.map((s) => s.task_id), truth, fit, init };
}
