// `splatlab tasks build splatbench`: the seed's fifteen objects (docs/TASKS.md "The seed's whole
// task set"): the six procedural objects, the six NeRF-Synthetic scenes found in a dataset folder
// and any photographed captures, each built into its sculpt, reassembly and one-shot tasks.
// Input: folders and options. Output: the tasks in `tasksDir` and `splatbench-manifest.json`
// there (per object: its source, where it came from, every source file with its SHA-256, the
// recipe and its tasks).
// Invariants: each object is built atomically (staging.ts), so a cancel or a failure leaves the
// objects built before it and no half task; an object whose manifest entry has the same files,
// hashes and recipe, and whose specs exist, is skipped (resume); absent scenes are named in one line.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { PROCEDURAL_OBJECT_NAMES } from '../../shared/authoring/objects/index';
import { OBJECT_SOURCES, type ObjectSource } from '../../shared/analysis/object-source';
import type { Grader } from '../grader/grader';
import { writeFileAtomic } from '../io/write-atomic';
import { buildObject, DEFAULT_BUILD_SEED, DEFAULT_BUILD_STEPS } from './build';
import { importCapture } from './capture';
import { readCapture } from './capture-read';
import { importNerf } from './nerf';
import { findTransforms, framePath, readTransforms } from './nerf-frames';
import { fitTask } from './fit/run';
import type { FitFn } from './pipeline';
import { formatJson, taskSpecs } from './task-files';

/** The seed's NeRF-Synthetic objects, by their folder names in nerf_synthetic/. */
export const NERF_SYNTHETIC_SCENES = ['lego', 'chair', 'hotdog', 'ficus', 'mic', 'drums'] as const;
/** The seed's photographed objects: Ignatius and Caterpillar (Tanks and Temples), a jade carving (BlendedMVS). */
export const SEED_CAPTURES = ['ignatius', 'caterpillar', 'jade'] as const;
export const MANIFEST_FILE = 'splatbench-manifest.json';

export interface SetBuildOptions {
  tasksDir: string;
  nerfSynthetic?: string;
  captures?: { name: string; dir: string }[];
  /** Build the six procedural objects too (default true). */
  procedural?: boolean;
  steps?: number;
  seed?: number;
  samples?: number; // ray-caster supersamples of the procedural photos (tests use fewer)
  grader: Grader;
  fit?: FitFn; // default: fitTask on `device`, cancelled by `signal`
  device?: 'cpu' | 'gpu';
  log?: (line: string) => void;
  signal?: AbortSignal;
}

interface Planned {
  object: string;
  source: ObjectSource;
  from: string; // 'procedural' or the folder
  files: () => string[]; // absolute source files (none for procedural objects); reading them may fail, which is the object's failure
  build: () => Promise<unknown>;
}

export interface ManifestEntry {
  source: ObjectSource;
  from: string;
  steps: number;
  seed: number;
  files: { path: string; sha256: string }[];
  tasks: string[];
}

export interface SetBuildResult {
  built: string[];
  skipped: string[]; // up to date (resumed)
  failed: { object: string; error: string }[];
  absent: string[];
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function readManifest(tasksDir: string): Record<string, ManifestEntry> {
  const p = join(tasksDir, MANIFEST_FILE);
  if (!existsSync(p)) return {};
  try {
    return (JSON.parse(readFileSync(p, 'utf8')) as { objects?: Record<string, ManifestEntry> }).objects ?? {};
  } catch {
    return {};
  }
}

/** The reference fit (fitTask) on the CPU float64 backend or the GPU, stopped by the signal. */
function cancellableFit(device: 'cpu' | 'gpu', signal: AbortSignal | undefined): FitFn {
  return async (source, request) => {
    const res = await fitTask(source, { steps: request.steps, seed: request.seed, device, ...(signal ? { signal } : {}), onProgress: (p) => request.onProgress?.(p.step, p.steps, p.loss) });
    return { records: res.records, losses: res.losses };
  };
}

function plan(opts: SetBuildOptions, steps: number, seed: number, absent: string[]): Planned[] {
  const fit = opts.fit ?? cancellableFit(opts.device ?? 'cpu', opts.signal);
  const common = { tasksDir: opts.tasksDir, steps, seed, grader: opts.grader, fit, ...(opts.log ? { log: opts.log } : {}) };
  const out: Planned[] = [];
  if (opts.procedural !== false) {
    for (const object of PROCEDURAL_OBJECT_NAMES) {
      out.push({ object, source: 'procedural', from: 'procedural', files: () => [], build: () => buildObject(object, { ...common, ...(opts.samples ? { samples: opts.samples } : {}) }) });
    }
  }
  const nerf = opts.nerfSynthetic === undefined ? null : resolve(opts.nerfSynthetic);
  for (const scene of NERF_SYNTHETIC_SCENES) {
    const dir = nerf === null ? null : join(nerf, scene);
    if (dir === null || !existsSync(dir)) {
      absent.push(nerf === null ? `${scene} (no --nerf-synthetic)` : `${scene} (no ${scene}/ in ${nerf})`);
      continue;
    }
    const files = (): string[] => {
      const t = findTransforms(dir);
      return [t, ...readTransforms(t).frames.map((f) => framePath(dir, f.file_path))];
    };
    out.push({ object: scene, source: 'synthetic', from: dir, files, build: () => importNerf(dir, { ...common, id: scene }) });
  }
  const given = new Map((opts.captures ?? []).map((c) => [c.name, resolve(c.dir)]));
  for (const name of SEED_CAPTURES) if (!given.has(name)) absent.push(`${name} (no --capture ${name}=DIR)`);
  for (const [name, dir] of given) {
    const files = (): string[] => {
      const cap = readCapture(dir);
      return [...cap.cameraFiles, ...cap.views.flatMap((v) => [v.photo, ...(v.mask ? [v.mask] : [])])];
    };
    out.push({ object: name, source: 'photographed', from: dir, files, build: () => importCapture(dir, { ...common, id: name, ...(opts.signal ? { signal: opts.signal } : {}) }) });
  }
  return out;
}

export async function buildTaskSet(opts: SetBuildOptions): Promise<SetBuildResult> {
  const steps = opts.steps ?? DEFAULT_BUILD_STEPS;
  const seed = opts.seed ?? DEFAULT_BUILD_SEED;
  const log = opts.log ?? ((): void => undefined);
  const tasksDir = resolve(opts.tasksDir);
  const absent: string[] = [];
  const objects = plan({ ...opts, tasksDir }, steps, seed, absent);
  const names = objects.map((o) => o.object);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`two objects are named '${dup}' (a --capture name must differ from the built-in and NeRF-Synthetic names)`);
  if (absent.length) log(`absent, not built: ${absent.join('; ')}`);
  const manifest = readManifest(tasksDir);
  const result: SetBuildResult = { built: [], skipped: [], failed: [], absent };
  for (const [i, o] of objects.entries()) {
    opts.signal?.throwIfAborted();
    const tag = `[${i + 1}/${objects.length}] ${o.object} (${o.source})`;
    try {
      const files = o.files().map((path) => ({ path: relative(o.from, path).split('\\').join('/'), sha256: sha256(path) }));
      const tasks = taskSpecs(o.object).map((s) => s.task_id);
      const entry: ManifestEntry = { source: o.source, from: o.from, steps, seed, files, tasks };
      const old = manifest[o.object];
      if (old && formatJson(old, 0) === formatJson(entry, 0) && tasks.every((t) => existsSync(join(tasksDir, `${t}.json`)))) {
        log(`${tag}: up to date, kept`);
        result.skipped.push(o.object);
        continue;
      }
      log(`${tag}: building from ${o.from}`);
      await o.build();
      manifest[o.object] = entry;
      writeFileAtomic(join(tasksDir, MANIFEST_FILE), `${formatJson({ set: 'seed', sources: OBJECT_SOURCES, objects: manifest }, 3)}\n`);
      log(`${tag}: built ${tasks.join(', ')}`);
      result.built.push(o.object);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      const msg = (err as Error).message.split('\n')[0];
      log(`${tag}: FAILED: ${msg}`);
      result.failed.push({ object: o.object, error: msg });
    }
  }
  return result;
}

/** The task sets `splatlab tasks build NAME` knows, by name. */
export const TASK_SETS: Record<string, (opts: SetBuildOptions) => Promise<SetBuildResult>> = { splatbench: buildTaskSet };
