// Rebuilding any object of a task set by name (`splatlab author build NAME`, `splatlab fit`):
// an object with a definition (built-in, authored, generated) is ray-cast again from its
// object.json and refitted; an imported one (photos only) keeps its photos and is refitted.
// Either way the fit, the scramble, the anchors, the specs and build.json are recomputed
// together, so `splatlab check` passes after a refit.
// Inputs: the tasks folder, an object name, the recipe (steps, seed, k, budgets), a grader.
// Output: the build result. Invariant: atomic (buildStaged), and the recipe defaults to the
// object's previous build, so a bare rebuild repeats it.
import { copyFileSync, cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getObject, PROCEDURAL_OBJECT_NAMES } from '../../shared/authoring/objects/index';
import type { Grader } from '../grader/grader';
import { objectDir, readObjectDir, resolveTasksDir } from '../tasks/paths';
import { buildObject, DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS, DEFAULT_PARTS, type BuildOptions, type BuildResult } from './build';
import { listObjectDocuments, readObjectDefinition, readPreviousBuild } from './documents';
import { cpuFit } from './fit-default';
import { finishObject, type FitFn } from './pipeline';
import { buildStaged } from './staging';
import type { Budgets } from './task-files';

/** Files a refit recomputes; everything else in the object's folder (photos, cameras, source.json, object.json) is kept. */
const DERIVED = new Set(['fit.json', 'fit_loss.png', 'init_reassembly.npz', 'parts_truth.json', 'anchors.json', 'build.json']);

export interface RebuildOptions {
  tasksDir?: string;
  steps?: number; // default: the previous build's, else 2000
  seed?: number; // default: the previous build's, else 0
  k?: number; // default: the previous build's, else 6
  budgets?: Partial<Budgets>;
  grader: Grader;
  fit?: FitFn;
  device?: GPUDevice | null;
  log?: (line: string) => void;
  samples?: number;
  /** Keep the photos even when the object has a definition (a refit: `splatlab fit`). */
  keepPhotos?: boolean;
}

/** Names an author can build: the built-ins and every object folder of the task set. */
export function buildableObjects(tasksDir: string): string[] {
  return [...new Set([...PROCEDURAL_OBJECT_NAMES, ...listObjectDocuments(tasksDir).map((d) => d.name)])].sort();
}

/** Refits an object from the photos already in its folder (imports, or `splatlab fit`). */
export async function refitFromPhotos(name: string, opts: RebuildOptions): Promise<BuildResult> {
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const dir = readObjectDir(tasksDir, name);
  if (!existsSync(join(dir, 'cameras.json'))) throw new Error(`object '${name}' has no photos in ${tasksDir} (no ${join(dir, 'cameras.json')})`);
  const previous = readPreviousBuild(tasksDir, name);
  const steps = opts.steps ?? previous.steps ?? DEFAULT_BUILD_STEPS;
  const seed = opts.seed ?? previous.seed ?? DEFAULT_BUILD_SEED;
  const k = opts.k ?? previous.k ?? DEFAULT_PARTS;
  const log = opts.log ?? ((): void => undefined);
  return buildStaged(tasksDir, name, async (staged) => {
    for (const f of readdirSync(dir)) {
      if (DERIVED.has(f) || f.startsWith('.')) continue;
      const from = join(dir, f);
      if (f === 'ref' || f === 'heldout') cpSync(from, join(staged.objectDir, f), { recursive: true });
      else copyFileSync(from, join(staged.objectDir, f));
    }
    const res = await finishObject(staged, name, {
      steps, seed, k, fit: opts.fit ?? cpuFit, grader: opts.grader, log,
      provenance: { ...previous.extra, source: previous.source ?? 'unknown', action: 'refit' },
      budgets: opts.budgets ?? previous.budgets,
      history: previous.history,
    });
    return { object: name, objectDir: objectDir(tasksDir, name), specs: res.specs, anchors: res.anchors, gaussians: res.fit.length, steps, seed, finalLoss: res.finalLoss };
  });
}

/** Builds any object of the task set by name (see the header). */
export async function rebuildObject(name: string, opts: RebuildOptions): Promise<BuildResult> {
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const builtIn = PROCEDURAL_OBJECT_NAMES.includes(name);
  const definition = readObjectDefinition(tasksDir, name) ?? (builtIn ? getObject(name) : null);
  if (!definition && !existsSync(readObjectDir(tasksDir, name))) {
    throw new Error(`unknown object '${name}' (objects here: ${buildableObjects(tasksDir).join(', ')})`);
  }
  if (!definition || opts.keepPhotos) return refitFromPhotos(name, opts);
  const previous = readPreviousBuild(tasksDir, name);
  const build: BuildOptions = {
    tasksDir,
    steps: opts.steps ?? previous.steps ?? DEFAULT_BUILD_STEPS,
    seed: opts.seed ?? previous.seed ?? DEFAULT_BUILD_SEED,
    k: opts.k ?? previous.k ?? DEFAULT_PARTS,
    grader: opts.grader,
    log: opts.log,
    ...(opts.fit ? { fit: opts.fit } : {}),
    ...(opts.device !== undefined ? { device: opts.device } : {}),
    ...(opts.samples !== undefined ? { samples: opts.samples } : {}),
    ...(opts.budgets ? { budgets: opts.budgets } : {}),
    // A built-in keeps its code definition unless its object.json was edited by hand.
    ...(builtIn && JSON.stringify(definition) === JSON.stringify(getObject(name)) ? {} : { object: definition }),
  };
  return buildObject(name, build);
}
