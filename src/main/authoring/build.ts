// `splatlab author build`: builds the three tasks of a procedural object (docs/DESIGN.md section 5).
// Stages: ray-cast the 8 reference and 8 held-out views at 256x256 with exact masks, write
// object.json, cameras.json, photos and masks; fit; scramble; anchors; specs (pipeline.ts).
// Input: object name and options. Output: tasks/<object>__{sculpt,reassembly,oneshot}.json and
// tasks/objects/<object>/. Invariant: deterministic for a seed (CPU ray caster and CPU fit),
// and atomic: the tasks folder changes only when every stage has succeeded.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getObject, PROCEDURAL_OBJECT_NAMES } from '../../shared/authoring/objects/index';
import type { ProceduralObject } from '../../shared/authoring/primitives';
import { DEFAULT_SAMPLES, raycastObject } from '../../shared/authoring/raycast';
import { HELDOUT_VIEWS, REFERENCE_VIEWS, viewCameras, type NamedView } from '../../shared/camera/views';
import type { Anchors, CamerasFile, TaskSpec } from '../../shared/task/schema';
import { Grader } from '../grader/grader';
import { resolveTasksDir } from '../tasks/paths';
import { cpuFit, taskFit } from './fit-default';
import { finishObject, type FitFn } from './pipeline';
import { buildStaged } from './staging';
import { formatJson, writeCameras, writeViews, type Budgets, type PhotoView } from './task-files';
import { readPreviousBuild } from './documents';

export const DEFAULT_BUILD_STEPS = 2000;
export const DEFAULT_BUILD_SEED = 0;
export const DEFAULT_PARTS = 6;
export const PHOTO_SIZE = 256;

export interface BuildOptions {
  steps?: number; // fit steps, default 2000
  seed?: number; // default 0 (the fit uses seed, the scramble scrambleSeed(object, seed))
  k?: number; // reassembly parts, default 6
  tasksDir?: string; // default: resolveTasksDir()
  device?: GPUDevice | null; // given: GPU fit and GPU anchors (faster, not bit-reproducible); else CPU references
  lpipsDir?: string | null; // LPIPS weights; null turns LPIPS off; undefined = default lookup
  fit?: FitFn; // default: fitTask on the CPU backend (or the GPU when `device` is given)
  grader?: Grader; // reuse one grader across objects
  log?: (line: string) => void;
  samples?: number; // ray-caster supersamples per pixel axis, default 4 (tests use fewer)
  /** The definition to build (default: the built-in object of that name). */
  object?: ProceduralObject;
  /** Task budgets (default: those of the object's previous build, else the benchmark's). */
  budgets?: Partial<Budgets>;
  /** Where the definition came from, recorded in build.json (default: procedural for built-ins, else the previous build's). */
  source?: string;
  /** Extra facts for build.json (e.g. a scene generator's seed); kept from the previous build otherwise. */
  provenance?: Record<string, unknown>;
}

export interface BuildResult {
  object: string;
  objectDir: string;
  specs: TaskSpec[];
  anchors: Anchors;
  gaussians: number;
  steps: number;
  seed: number;
  finalLoss: number | null;
}

function photoViews(obj: ProceduralObject, views: readonly NamedView[], samples: number): PhotoView[] {
  return viewCameras(views, PHOTO_SIZE).map((camera, i) => {
    const out = raycastObject(obj, camera, { samples });
    return { name: views[i].name, photo: out.rgb, mask: out.mask };
  });
}

function camerasFile(): CamerasFile {
  const entries = (views: readonly NamedView[]) => viewCameras(views, PHOTO_SIZE).map((camera, i) => ({
    name: views[i].name, azimuth: views[i].azimuth, elevation: views[i].elevation, camera,
  }));
  return { reference: entries(REFERENCE_VIEWS), heldout: entries(HELDOUT_VIEWS) };
}

export async function buildObject(name: string, opts: BuildOptions = {}): Promise<BuildResult> {
  const object = opts.object ? { ...opts.object, name } : getObject(name);
  const steps = opts.steps ?? DEFAULT_BUILD_STEPS;
  const seed = opts.seed ?? DEFAULT_BUILD_SEED;
  if (!Number.isInteger(steps) || steps < 0) throw new Error(`steps must be a non-negative integer (got ${steps})`);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`seed must be a non-negative integer (got ${seed})`);
  const log = opts.log ?? ((): void => undefined);
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const previous = readPreviousBuild(tasksDir, name);
  const source = opts.source ?? (PROCEDURAL_OBJECT_NAMES.includes(name) && !opts.object ? 'procedural' : previous.source ?? 'authored');
  const grader = opts.grader ?? (await Grader.create({ device: opts.device ?? null, ...(opts.lpipsDir !== undefined ? { lpipsDir: opts.lpipsDir } : {}) }));
  try {
    return await buildStaged(tasksDir, name, async (staged) => {
      const t0 = Date.now();
      writeFileSync(join(staged.objectDir, 'object.json'), `${formatJson(object, 2)}\n`);
      writeCameras(staged.objectDir, camerasFile());
      const samples = opts.samples ?? DEFAULT_SAMPLES;
      writeViews(staged.objectDir, 'ref', photoViews(object, REFERENCE_VIEWS, samples));
      writeViews(staged.objectDir, 'heldout', photoViews(object, HELDOUT_VIEWS, samples));
      log(`${name}: photos ${REFERENCE_VIEWS.length} reference + ${HELDOUT_VIEWS.length} held-out views at ${PHOTO_SIZE}x${PHOTO_SIZE} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      const res = await finishObject(staged, name, {
        steps, seed, k: opts.k ?? DEFAULT_PARTS, fit: opts.fit ?? (opts.device ? taskFit('gpu') : cpuFit), grader, log,
        provenance: { ...previous.extra, ...opts.provenance, source }, budgets: opts.budgets ?? previous.budgets, history: previous.history,
      });
      return {
        object: name,
        objectDir: join(tasksDir, 'objects', name),
        specs: res.specs,
        anchors: res.anchors,
        gaussians: res.fit.length,
        steps,
        seed,
        finalLoss: res.finalLoss,
      };
    });
  } finally {
    if (!opts.grader) grader.destroy();
  }
}
