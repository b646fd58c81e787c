// Loads one task from a tasks folder (docs/DESIGN.md section 5): spec, cameras, reference and held-out
// photos with masks, anchors and the initial scene; and lists the folder's tasks publicly.
// Input: task id (+ tasksDir option). Output: LoadedTask (main-side only: held-out views and
// anchors must never reach a player) or TaskSummary[] (public: no held-out data, no anchors).
// Invariant: every failure is one TaskLoadError line naming the task and the file at fault.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import type { RgbImage } from '../../shared/image/image';
import { maskFromImage } from '../../shared/metrics/mask';
import type { Camera } from '../../shared/raster/types';
import {
  AnchorsSchema,
  CamerasFileSchema,
  TaskSpecHeadSchema,
  TaskSpecSchema,
  TaskSummarySchema,
  taskSummary,
  type Anchors,
  type CamerasFile,
  type TaskSpec,
  type TaskSpecHead,
  type TaskSummary,
  type ViewEntry,
} from '../../shared/task/schema';
import { parseSceneFile } from '../../shared/scene/input';
import { readSceneNpz, type NpzScene } from '../io/npz';
import { readPng, readPngRgb, toRgb } from '../io/png';
import { checkSafeId } from '../io/confine';
import { readJsonChecked } from '../io/json-file';
import { layerBelow, readObjectDir, resolveTasksDir, taskFile } from './paths';

export interface RefView {
  name: string;
  azimuth?: number;
  elevation?: number;
  camera: Camera;
  photo: RgbImage;
  mask: Float32Array; // [H, W] object mask in [0, 1]
}

export interface LoadedTask {
  spec: TaskSpec;
  dir: string; // the object's folder
  reference: RefView[];
  heldout: RefView[]; // hidden: never sent to a player
  anchors: Anchors; // hidden
  init: GaussianRecord[] | null;
}

/** Reads one view set's photos and masks as readViews does (the lab: on its worker pool, tasks/view-files.ts). */
export type ViewReader = (dir: string, sub: 'ref' | 'heldout', entries: ViewEntry[], what: string) => Promise<RefView[]>;

export interface LoadOptions {
  tasksDir?: string;
  /**
   * Leave the reference photos unread (`reference` is then []): for a grade, which reads only the
   * held-out views (`splatlab grade`: half the photos a cold start decodes). Default false.
   */
  heldoutOnly?: boolean;
  /** How the photos are decoded; default readViews in this thread. */
  readViews?: ViewReader;
}

export class TaskLoadError extends Error {
  override name = 'TaskLoadError';
}

/** Reads and validates a JSON file; `what` prefixes every error. */
export function readJson<T>(path: string, schema: z.ZodType<T>, what: string): T {
  return readJsonChecked(path, schema, { what, error: TaskLoadError });
}

/** Ids of every `<id>.json` spec in the folder alone (not its built-in layer), sorted. */
export function ownTaskIds(tasksDir: string): string[] {
  if (!existsSync(tasksDir)) return [];
  return readdirSync(tasksDir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => e.name.slice(0, -5))
    .sort();
}

/** Ids of every task of the folder and, when it is layered (tasks/paths.ts), of the built-in set, sorted. */
export function taskIds(tasksDir: string): string[] {
  const below = layerBelow(tasksDir);
  if (!below) return ownTaskIds(tasksDir);
  return [...new Set([...ownTaskIds(tasksDir), ...ownTaskIds(below)])].sort();
}

/** What `read` makes of every task id in the folder (in id order), and one line per task it could not read. */
export function readEachTask<T>(tasksDir: string, read: (id: string) => T): { items: T[]; problems: string[] } {
  const items: T[] = [];
  const problems: string[] = [];
  for (const id of taskIds(tasksDir)) {
    try {
      items.push(read(id));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { items, problems };
}

/** Reads `tasks/<id>.json` with a kind's spec schema (default SplatBench's). */
export function readSpec(tasksDir: string, taskId: string): TaskSpec;
export function readSpec<T extends TaskSpecHead>(tasksDir: string, taskId: string, schema: z.ZodType<T>): T;
export function readSpec(tasksDir: string, taskId: string, schema: z.ZodType<TaskSpecHead> = TaskSpecSchema): TaskSpecHead {
  checkSafeId(taskId, 'task id');
  const path = taskFile(tasksDir, `${taskId}.json`);
  if (!existsSync(path)) {
    const known = taskIds(tasksDir);
    const list = known.length ? known.join(', ') : 'none';
    throw new TaskLoadError(`unknown task '${taskId}' in ${tasksDir} (known: ${list})`);
  }
  const spec = readJson(path, schema, `task ${taskId}`);
  if (spec.task_id !== taskId) throw new TaskLoadError(`task ${taskId}: ${path} says task_id '${spec.task_id}'`);
  return spec;
}

/** The id and kind of a task file, whatever its kind (its module reads the rest). */
export function readSpecHead(tasksDir: string, taskId: string): TaskSpecHead {
  return readSpec(tasksDir, taskId, TaskSpecHeadSchema);
}

/** Photo names in a view folder (PNG files that are not masks). */
function photoNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.png') && !f.endsWith('_mask.png')).map((f) => f.slice(0, -4));
}

/** Loads the photos of one view set (`ref` or `heldout`) for the cameras listed. */
export function readViews(dir: string, sub: 'ref' | 'heldout', entries: ViewEntry[], what: string): RefView[] {
  const folder = join(dir, sub);
  const kind = sub === 'ref' ? 'reference' : 'heldout';
  const found = photoNames(folder);
  const counts = `cameras.json lists ${entries.length} ${kind} cameras, ${sub}/ holds ${found.length} photos`;
  const missing = entries.find((e) => !found.includes(e.name));
  if (missing) throw new TaskLoadError(`${what}: missing photo ${join(folder, `${missing.name}.png`)} (${counts})`);
  const listed = new Set(entries.map((e) => e.name));
  if (listed.size !== entries.length) throw new TaskLoadError(`${what}: cameras.json repeats a ${kind} view name`);
  const extra = found.filter((n) => !listed.has(n));
  if (extra.length > 0) throw new TaskLoadError(`${what}: camera count mismatch: ${counts} (no camera for ${extra.join(', ')})`);
  return entries.map((e) => {
    const photoPath = join(folder, `${e.name}.png`);
    let photo: RgbImage;
    try {
      photo = readPngRgb(photoPath);
    } catch (err) {
      throw new TaskLoadError(`${what}: ${(err as Error).message}`);
    }
    if (photo.width !== e.camera.width || photo.height !== e.camera.height) {
      throw new TaskLoadError(`${what}: ${photoPath} is ${photo.width}x${photo.height} but camera ${e.name} is ${e.camera.width}x${e.camera.height}`);
    }
    const view: RefView = { name: e.name, camera: e.camera, photo, mask: readMask(folder, e.name, photo, what) };
    if (e.azimuth !== undefined) view.azimuth = e.azimuth;
    if (e.elevation !== undefined) view.elevation = e.elevation;
    return view;
  });
}

/** `<name>_mask.png` (grey, first channel) when present, else the photo's non-white pixels. */
function readMask(folder: string, name: string, photo: RgbImage, what: string): Float32Array {
  const path = join(folder, `${name}_mask.png`);
  if (!existsSync(path)) return Float32Array.from(maskFromImage(photo));
  const png = readPng(path);
  if (png.width !== photo.width || png.height !== photo.height) {
    throw new TaskLoadError(`${what}: ${path} is ${png.width}x${png.height}, its photo ${photo.width}x${photo.height}`);
  }
  const grey = toRgb(png);
  const out = new Float32Array(photo.width * photo.height);
  for (let i = 0; i < out.length; i++) out[i] = grey.data[i * 3];
  return out;
}

/** Records from the contract's npz layout, ids 0..N-1 in file order. */
export function recordsFromNpz(scene: NpzScene): GaussianRecord[] {
  const out: GaussianRecord[] = [];
  for (let i = 0; i < scene.count; i++) {
    const r: GaussianRecord = {
      id: i,
      pos: [scene.positions[i * 3], scene.positions[i * 3 + 1], scene.positions[i * 3 + 2]],
      scale: [scene.scales[i * 3], scene.scales[i * 3 + 1], scene.scales[i * 3 + 2]],
      quat: [scene.quaternions[i * 4], scene.quaternions[i * 4 + 1], scene.quaternions[i * 4 + 2], scene.quaternions[i * 4 + 3]],
      color: [scene.colors[i * 3], scene.colors[i * 3 + 1], scene.colors[i * 3 + 2]],
      opacity: scene.opacities[i],
    };
    const g = scene.groups[i];
    if (g !== null) r.group = g;
    out.push(r);
  }
  return out;
}

function readInit(tasksDir: string, spec: TaskSpec, what: string): GaussianRecord[] | null {
  if (spec.init_npz === null) return null;
  const path = taskFile(tasksDir, spec.init_npz);
  if (!existsSync(path)) throw new TaskLoadError(`${what}: missing init_npz ${path}`);
  try {
    return recordsFromNpz(readSceneNpz(new Uint8Array(readFileSync(path))));
  } catch (err) {
    throw new TaskLoadError(`${what}: ${path}: ${(err as Error).message}`);
  }
}

export function readCameras(dir: string, what: string): CamerasFile {
  return readJson(join(dir, 'cameras.json'), CamerasFileSchema, what);
}

/** The object's gradient-descent fit (fit.json). */
export function readFit(dir: string, what: string): GaussianRecord[] {
  const path = join(dir, 'fit.json');
  if (!existsSync(path)) throw new TaskLoadError(`${what}: missing ${path}`);
  try {
    return parseSceneFile(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    throw new TaskLoadError(`${what}: ${path}: ${(err as Error).message}`);
  }
}

export async function loadTask(taskId: string, opts: LoadOptions = {}): Promise<LoadedTask> {
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const spec = readSpec(tasksDir, taskId);
  const what = `task ${taskId}`;
  const dir = readObjectDir(tasksDir, spec.object);
  if (!existsSync(dir)) throw new TaskLoadError(`${what}: missing object folder ${dir}`);
  const cameras = readCameras(dir, what);
  const anchors = readJson(join(dir, 'anchors.json'), AnchorsSchema, what);
  const init = readInit(tasksDir, spec, what);
  const read = opts.readViews ?? (async (...args: Parameters<ViewReader>) => readViews(...args));
  const [reference, heldout] = await Promise.all([
    opts.heldoutOnly === true ? Promise.resolve([]) : read(dir, 'ref', cameras.reference, what),
    read(dir, 'heldout', cameras.heldout, what),
  ]);
  return { spec, dir, reference, heldout, anchors, init };
}

/** Task summaries of a folder (SplatBench's, or every kind's: kinds/registry.ts scanAllTasks). */
export interface TaskScan {
  tasks: TaskSummary[];
  problems: string[]; // one line per task file that could not be read
}

/** Public summaries of every readable task (sorted by id) and one line per unreadable one. */
export function scanTasks(tasksDir?: string): TaskScan {
  const dir = resolveTasksDir(tasksDir);
  const { items, problems } = readEachTask(dir, (id) => {
    const spec = readSpec(dir, id);
    const cameras = readCameras(readObjectDir(dir, spec.object), `task ${id}`);
    return TaskSummarySchema.parse(taskSummary(spec, cameras.reference));
  });
  return { tasks: items, problems };
}

/** Summaries of every readable task; unreadable ones are left out (scanTasks reports them). */
export async function listTasks(tasksDir?: string): Promise<TaskSummary[]> {
  return scanTasks(tasksDir).tasks;
}
