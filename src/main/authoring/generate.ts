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
import { readObjectDir } from '../tasks/paths';
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
  return Object.fromEntries(chosen.map((n) => [n, readFit(readObjectDir(tasksDir, n), `object ${n}`)]));
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

/** One object of a hand-composed scene: where it stands and how it is scaled, turned and recoloured. */
export interface Placement {
  object: string;
  centre: [number, number];
  scale?: number; // default 0.45
  heading_deg?: number; // default 0
  hue_deg?: number; // default 0 (own colours)
}

export interface ComposeOptions extends Omit<GenerateOptions, 'seed' | 'count' | 'prefix' | 'library' | 'fitted' | keyof SceneGenOptions> {
  placements: Placement[];
  gap?: number;
}

/**
 * A scene composed by hand from any built objects of the task set (built-in, authored, imported),
 * each from its fit: footprints must lie inside the ground square and not overlap, else one line
 * names the two objects. Built like a fitted generated scene; build.json records the placements.
 */
export async function composeScene(name: string, opts: ComposeOptions): Promise<BuildResult> {
  if (opts.placements.length === 0) throw new Error('a composed scene needs at least one object');
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const fits = fittedLibrary(tasksDir, [...new Set(opts.placements.map((p) => p.object))]);
  const gap = opts.gap ?? 0;
  const placed: PlacedObject[] = opts.placements.map((p, i) => {
    const box = gaussianBox(fits[p.object]);
    const cx = (box.min[0] + box.max[0]) / 2;
    const cy = (box.min[1] + box.max[1]) / 2;
    const scale = p.scale ?? 0.45;
    if (!(scale > 0)) throw new Error(`${p.object}: the scale must be > 0 (got ${scale})`);
    const r0 = Math.max(...[box.min[0], box.max[0]].flatMap((x) => [box.min[1], box.max[1]].map((y) => Math.hypot(x - cx, y - cy))));
    return { object: p.object, group: `${p.object}_${i + 1}`, scale, heading_deg: p.heading_deg ?? 0, hue_deg: p.hue_deg ?? 0, centre: p.centre, radius: r0 * scale };
  });
  for (const p of placed) {
    if (Math.max(Math.abs(p.centre[0]), Math.abs(p.centre[1])) + p.radius > 0.98 + 1e-9) throw new Error(`${p.group} at (${p.centre.join(', ')}) with radius ${p.radius.toFixed(2)} leaves the ground square [-0.98, 0.98]^2 (move it or scale it down)`);
  }
  for (let i = 0; i < placed.length; i++) {
    for (let j = i + 1; j < placed.length; j++) {
      const [a, b] = [placed[i], placed[j]];
      if (Math.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < a.radius + b.radius + gap) throw new Error(`${a.group} and ${b.group} overlap (footprints of radius ${a.radius.toFixed(2)} and ${b.radius.toFixed(2)})`);
    }
  }
  const log = opts.log ?? ((): void => undefined);
  return buildGaussianObject(name, composeGaussians(placed, fits), {
    tasksDir, grader: opts.grader, steps: opts.steps, seed: opts.fitSeed ?? 0, ...(opts.k !== undefined ? { k: opts.k } : {}), ...(opts.budgets ? { budgets: opts.budgets } : {}),
    source: 'composed', provenance: { composed: placed.map(rounded) }, log,
  });
}

/** `tree@0.3,0.2[,scale[,heading[,hue]]];ring@-0.4,0` as placements (one line on a bad entry). */
export function parsePlacements(text: string): Placement[] {
  return text.split(';').map((s) => s.trim()).filter(Boolean).map((entry) => {
    const m = /^([A-Za-z0-9_.-]+)@(.+)$/.exec(entry);
    const nums = m ? m[2].split(',').map((v) => Number(v.trim())) : [];
    if (!m || nums.length < 2 || nums.length > 5 || nums.some((v) => !Number.isFinite(v))) throw new Error(`'${entry}' is not NAME@X,Y[,SCALE[,HEADING[,HUE]]]`);
    const [x, y, scale, heading, hue] = nums;
    return { object: m[1], centre: [x, y], ...(scale !== undefined ? { scale } : {}), ...(heading !== undefined ? { heading_deg: heading } : {}), ...(hue !== undefined ? { hue_deg: hue } : {}) };
  });
}
