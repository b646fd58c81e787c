// An object made of Gaussians built into its three tasks (docs/TASKS.md, "Generated scenes"): a
// composed scene of fitted or imported objects has no primitives to ray-cast, so its photos are
// the grader rasterizer's renders of the Gaussians from the standard reference and held-out
// cameras (the render is the photo, its coverage the mask); the fit, scramble and anchors then
// come from the shared build pipeline like any other object's.
// Inputs: an object name, its Gaussians (inside the bounds cube), build options.
// Output: BuildResult. Invariant: checks (an invisible view) run before anything is written and
// the task set changes only when the whole build succeeded (buildStaged).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packSplats, type GaussianRecord } from '../../shared/scene/gaussian';
import type { Grader } from '../grader/grader';
import { resolveTasksDir } from '../tasks/paths';
import { DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS, DEFAULT_PARTS, PHOTO_SIZE, type BuildResult } from './build';
import { readPreviousBuild } from './documents';
import { cpuFit } from './fit-default';
import { finishObject, type FitFn } from './pipeline';
import { standardCameras, standardViews, type ViewSet } from './session/photos';
import { buildStaged } from './staging';
import { formatJson, writeCameras, writeViews, type Budgets, type PhotoView } from './task-files';

export interface GaussianBuildOptions {
  tasksDir?: string;
  steps?: number;
  seed?: number;
  k?: number;
  grader: Grader;
  fit?: FitFn;
  budgets?: Partial<Budgets>;
  /** Recorded in build.json as `source` (e.g. 'generated'). */
  source: string;
  provenance?: Record<string, unknown>;
  log?: (line: string) => void;
}

/** Renders of Gaussians from one standard view set, as photos with their coverage as masks. */
export async function renderPhotoSet(grader: Grader, records: readonly GaussianRecord[], set: ViewSet, size: number): Promise<PhotoView[]> {
  const views = standardViews(set, size);
  const renders = await grader.renderViews(packSplats([...records]), views.map((v) => v.camera));
  return renders.map((r, i) => ({ name: views[i].view.name, photo: { width: r.width, height: r.height, data: r.rgb }, mask: r.alpha }));
}

export async function buildGaussianObject(name: string, records: readonly GaussianRecord[], opts: GaussianBuildOptions): Promise<BuildResult> {
  if (records.length === 0) throw new Error(`${name}: the scene holds no Gaussians`);
  const steps = opts.steps ?? DEFAULT_BUILD_STEPS;
  const seed = opts.seed ?? DEFAULT_BUILD_SEED;
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const log = opts.log ?? ((): void => undefined);
  const reference = await renderPhotoSet(opts.grader, records, 'reference', PHOTO_SIZE);
  const heldout = await renderPhotoSet(opts.grader, records, 'heldout', PHOTO_SIZE);
  const blank = [...reference, ...heldout].find((v) => !v.mask.some((m) => m > 0.5));
  if (blank) throw new Error(`${name}: the scene is not visible in view ${blank.name} (every Gaussian too faint or too small)`);
  const previous = readPreviousBuild(tasksDir, name);
  return buildStaged(tasksDir, name, async (staged) => {
    writeCameras(staged.objectDir, standardCameras(PHOTO_SIZE));
    writeViews(staged.objectDir, 'ref', reference);
    writeViews(staged.objectDir, 'heldout', heldout);
    writeFileSync(join(staged.objectDir, 'source.json'), `${formatJson({ source: opts.source, gaussians: records.length })}\n`);
    log(`${name}: photos rendered from ${records.length} Gaussians (${reference.length} reference + ${heldout.length} held-out views at ${PHOTO_SIZE}x${PHOTO_SIZE})`);
    const res = await finishObject(staged, name, {
      steps, seed, k: opts.k ?? DEFAULT_PARTS, fit: opts.fit ?? cpuFit, grader: opts.grader, log,
      provenance: { ...previous.extra, ...opts.provenance, source: opts.source }, budgets: opts.budgets ?? previous.budgets, history: previous.history,
    });
    return { object: name, objectDir: join(tasksDir, 'objects', name), specs: res.specs, anchors: res.anchors, gaussians: res.fit.length, steps, seed, finalLoss: res.finalLoss };
  });
}
