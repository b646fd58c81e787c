// A batch of generated multi-object tasks (`splatlab author generate`): for each scene of the
// batch, a seeded random arrangement of library objects (scene-gen.ts) is built like any object
// (photos, fit, scramble, anchors, the three task specs) with the batch's budgets and recipe.
// Inputs: batch seed, count, name prefix, library (built-ins plus the task set's objects with a
// definition, or a chosen subset), budgets, fit steps. Output: one BuildResult per scene.
// Invariant: scene i of a batch depends only on (batch seed, i, library, options), so a batch
// can be extended or one scene rebuilt (`author build NAME` reads its object.json) alone.
import { PROCEDURAL_OBJECTS } from '../../shared/authoring/objects/index';
import type { ProceduralObject } from '../../shared/authoring/primitives';
import { composeGaussians, gaussianBox, generateScene, placeObjects, type PlacedObject, type SceneGenOptions } from '../../shared/authoring/scene-gen';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import { readFit } from '../tasks/load';
import { objectDir } from '../tasks/paths';
import { buildGaussianObject } from './gaussian-build';
import type { Grader } from '../grader/grader';
import { resolveTasksDir } from '../tasks/paths';
import { buildObject, type BuildResult } from './build';
import { listObjectDocuments, readObjectDefinition } from './documents';
import type { Budgets } from './task-files';

export interface GenerateOptions extends SceneGenOptions {
  seed: number;
  count: number;
  prefix?: string; // default 'gen'
  library?: string[]; // default: every object with a definition (with `fitted`: every object with a fit)
  /**
   * Compose scenes from the objects' fits (fit.json) instead of their primitives, so imported
   * (NeRF, .ply) and fitted objects can be drawn too; photos are renders of the composed Gaussians.
   */
  fitted?: boolean;
  budgets?: Partial<Budgets>;
  steps: number;
  fitSeed?: number;
  k?: number;
  tasksDir?: string;
  grader: Grader;
  samples?: number;
  log?: (line: string) => void;
}

/** Library objects by name: the built-ins and the task set's authored or generated objects. */
export function sceneLibrary(tasksDir: string, names?: string[]): Record<string, ProceduralObject> {
  const all: Record<string, ProceduralObject> = { ...PROCEDURAL_OBJECTS };
  for (const d of listObjectDocuments(tasksDir)) {
    if (!d.editable || d.builtIn || d.source === 'generated') continue;
    const def = readObjectDefinition(tasksDir, d.name);
    if (def) all[d.name] = def;
  }
  if (!names) return all;
  const missing = names.filter((n) => !Object.hasOwn(all, n));
  if (missing.length) throw new Error(`not in the object library: ${missing.join(', ')} (library: ${Object.keys(all).sort().join(', ')})`);
  return Object.fromEntries(names.map((n) => [n, all[n]]));
}

/**
 * Fitted library objects by name: every object of the task set with a fit.json (built-in,
 * authored or imported; generated scenes are left out), or the named subset.
 */
export function fittedLibrary(tasksDir: string, names?: string[]): Record<string, GaussianRecord[]> {
  const docs = listObjectDocuments(tasksDir).filter((d) => d.source !== 'generated');
  const known = docs.map((d) => d.name);
  const chosen = names ?? known;
  const missing = chosen.filter((n) => !known.includes(n));
  if (missing.length) throw new Error(`not a built object of the task set: ${missing.join(', ')} (objects: ${known.join(', ') || 'none'}; build one with 'splatlab author build NAME')`);
  return Object.fromEntries(chosen.map((n) => [n, readFit(objectDir(tasksDir, n), `object ${n}`)]));
}

const rounded = (p: PlacedObject): Record<string, unknown> => ({ ...p, scale: Number(p.scale.toFixed(6)), heading_deg: Number(p.heading_deg.toFixed(4)), hue_deg: Number(p.hue_deg.toFixed(4)), radius: Number(p.radius.toFixed(6)), centre: p.centre.map((v) => Number(v.toFixed(6))) });

/** Seed of scene i of a batch (mixes the batch seed and the index, so neighbours differ). */
export function sceneSeed(batchSeed: number, index: number): number {
  return (Math.imul(batchSeed + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
}

export async function generateBatch(opts: GenerateOptions): Promise<BuildResult[]> {
  if (!Number.isInteger(opts.count) || opts.count < 1) throw new Error(`the number of scenes must be a positive integer (got ${opts.count})`);
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const library = opts.fitted ? null : sceneLibrary(tasksDir, opts.library);
  const fits = opts.fitted ? fittedLibrary(tasksDir, opts.library) : null;
  const boxes = fits ? Object.fromEntries(Object.entries(fits).map(([n, r]) => [n, gaussianBox(r)])) : null;
  const prefix = opts.prefix ?? 'gen';
  const log = opts.log ?? ((): void => undefined);
  const out: BuildResult[] = [];
  for (let i = 0; i < opts.count; i++) {
    const seed = sceneSeed(opts.seed, i);
    const name = `${prefix}${opts.seed}_${String(i + 1).padStart(2, '0')}`;
    const scene = library ? generateScene(seed, library, opts) : null;
    const placed = scene ? scene.placed : placeObjects(seed, boxes ?? {}, opts);
    log(`${name}: ${placed.map((p) => `${p.object} x${p.scale.toFixed(2)} at (${p.centre.map((v) => v.toFixed(2)).join(', ')}) turned ${p.heading_deg.toFixed(0)} deg`).join('; ')}`);
    const generator = { batch_seed: opts.seed, index: i + 1, scene_seed: seed, ...(fits ? { fitted: true } : {}), placed: placed.map(rounded) };
    const common = {
      steps: opts.steps,
      seed: opts.fitSeed ?? 0,
      ...(opts.k !== undefined ? { k: opts.k } : {}),
      ...(opts.budgets ? { budgets: opts.budgets } : {}),
      tasksDir,
      grader: opts.grader,
      log,
    };
    if (scene) {
      out.push(await buildObject(name, { ...common, object: scene.object, source: 'generated', provenance: { generator }, ...(opts.samples !== undefined ? { samples: opts.samples } : {}) }));
    } else {
      out.push(await buildGaussianObject(name, composeGaussians(placed, fits ?? {}), { ...common, source: 'generated', provenance: { generator } }));
    }
  }
  return out;
}
