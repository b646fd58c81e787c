// Opens a scene for the debugger from any of its sources: a task's fit (or initial scene), a
// trajectory step (uploaded JSONL or a file under the lab home), a 3DGS .ply (base64 bytes), a
// scene JSON document, or any splat file (docs/FORMATS.md) by path or chunked upload, shown with
// the asked up axis (frame.ts). Inputs: a DebugSource and where tasks and the lab home are.
// Output: OpenedScene (records, the task whose cameras and photos apply, the frame, warnings).
// Invariant: every failure is one DebugSourceError line saying which input is wrong and how;
// nothing is opened then. Trajectory paths must stay inside the lab home.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import { confinedPath } from '../io/confine';
import type { DebugFrame, DebugSource, DebugUp } from '../../shared/api/debug';
import type { FrameEvidence } from '../../shared/debug/frame';
import { parsePly } from '../../shared/authoring/import/ply';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import { parseSceneDocument, parseSceneItem } from '../../shared/scene/input';
import { parseTrajectory, type Trajectory } from '../env/trajectory';
import { readSplatFile, type ReadSplatOptions, type SplatFile } from '../formats/read';
import type { Splats } from '../../shared/scene/splats';
import type { Axis } from '../../shared/formats/types';
import { insideRoots, type DebugUploads } from './files';
import { frameEvidence, frameFor, turnScene } from './frame';
import { loadTask, readFit, type LoadedTask } from '../tasks/load';

export class DebugSourceError extends Error {
  override name = 'DebugSourceError';
}

export interface OpenedScene {
  label: string;
  /** The Gaussians as records; a splat file leaves this empty and gives `splats` (millions of rows). */
  records: GaussianRecord[];
  /** The packed scene of a splat file (ids are row numbers); absent for record sources. */
  splats?: Splats;
  task: LoadedTask | null;
  warnings: string[];
  steps: number[] | null;
  step: number | null;
  /** Splat files: what says where up is, and the frame `splats` is shown in (its line leads the session's warnings). */
  frame?: { evidence: FrameEvidence; current: DebugFrame };
}

export interface SourceOptions {
  tasksDir: string;
  home: string;
  /** Parses trajectory text (the lab's worker pool for large logs); default parseTrajectory here. */
  parse?: (text: string) => Promise<Trajectory>;
  /** Staged chunked uploads, watched folders, the memory budget (splat files only). */
  uploads?: DebugUploads;
  captureRoots?: string[];
  budgetBytes?: number;
  /** Reads a splat file (the lab's worker pool, off the event loop); default readSplatFile here. */
  read?: (path: string, opts: ReadSplatOptions) => Promise<SplatFile>;
  /** Loads a task (the lab's task repository: loaded and decoded once, not per open); default loadTask. */
  loadTask?: (taskId: string) => Promise<LoadedTask>;
  /** Turns a splat file to the asked up axis (the lab's worker pool); default turnScene here. */
  turn?: (splats: Splats, from: Axis, to: Axis) => Promise<Splats>;
}

/** Largest trajectory file read from disk (the upload limit is the message limit). */
const MAX_TRAJECTORY_BYTES = 256 * 1024 * 1024;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function openSource(source: DebugSource, opts: SourceOptions): Promise<OpenedScene> {
  switch (source.kind) {
    case 'task':
      return openTask(source.taskId, source.scene, opts);
    case 'trajectory':
      return openTrajectory(source, opts);
    case 'ply':
      return openPly(source.base64, source.name);
    case 'scene':
      return openSceneJson(source.text, source.name);
    case 'file': {
      const roots = [opts.home, ...(opts.captureRoots ?? [])];
      const full = insideRoots(source.path, roots);
      if (!full) throw new DebugSourceError(`${source.path} is outside the lab home and the watched captures folders (${roots.join(', ')})`);
      return openSplatFile(full, basename(full), source.up, opts);
    }
    case 'upload': {
      if (!opts.uploads) throw new DebugSourceError('this lab takes no chunked uploads');
      let upload;
      try {
        upload = opts.uploads.complete(source.uploadId);
      } catch (error) {
        throw new DebugSourceError(errorText(error));
      }
      try {
        return await openSplatFile(upload.path, upload.name, source.up, opts, upload.abort.signal);
      } finally {
        opts.uploads.remove(upload.id);
      }
    }
  }
}

/** Any supported splat file through readSplatFile, within the memory budget, shown with the asked up. */
async function openSplatFile(path: string, name: string, up: DebugUp, opts: SourceOptions, signal?: AbortSignal): Promise<OpenedScene> {
  let file;
  try {
    file = await (opts.read ?? readSplatFile)(path, { name, memoryBudgetBytes: opts.budgetBytes, signal });
  } catch (error) {
    // The reader's line starts with the staged path; the user knows the file by its name.
    throw new DebugSourceError(errorText(error).replace(path, name));
  }
  const evidence = frameEvidence(file);
  const current = frameFor(up, evidence);
  const splats = current.up === '+z' ? file.splats : opts.turn ? await opts.turn(file.splats, '+z', current.up) : turnScene(file.splats, '+z', current.up);
  const label = `${name} (${file.detected})`;
  return { label, records: [], splats, task: null, warnings: file.warnings, steps: null, step: null, frame: { evidence, current } };
}

async function openTask(taskId: string, scene: 'fit' | 'init', opts: SourceOptions): Promise<OpenedScene> {
  let task: LoadedTask;
  try {
    task = await (opts.loadTask ? opts.loadTask(taskId) : loadTask(taskId, { tasksDir: opts.tasksDir }));
  } catch (error) {
    throw new DebugSourceError(errorText(error));
  }
  let records: GaussianRecord[];
  try {
    records = scene === 'fit' ? readFit(task.dir, `task ${taskId}`) : (task.init ?? []);
  } catch (error) {
    throw new DebugSourceError(errorText(error));
  }
  const label = scene === 'fit' ? `${taskId}: reference fit` : `${taskId}: initial scene`;
  return { label, records, task, warnings: [], steps: null, step: null };
}

function readTrajectoryText(source: Extract<DebugSource, { kind: 'trajectory' }>, home: string): { text: string; name: string } {
  if (source.text !== undefined && source.path !== undefined) throw new DebugSourceError('give either the trajectory text or a path, not both');
  if (source.text !== undefined) return { text: source.text, name: 'uploaded trajectory' };
  if (source.path === undefined) throw new DebugSourceError('give the trajectory as text (upload) or as a path under the lab home');
  const root = resolve(home);
  const full = confinedPath(root, source.path, 'trajectory path', 'the lab home');
  const rel = relative(root, full);
  if (!existsSync(full) || !statSync(full).isFile()) throw new DebugSourceError(`no trajectory file ${full}`);
  if (statSync(full).size > MAX_TRAJECTORY_BYTES) throw new DebugSourceError(`${full} is larger than ${MAX_TRAJECTORY_BYTES} bytes`);
  return { text: readFileSync(full, 'utf8'), name: rel };
}

/** The scene after logged step `step`: the latest `state` at or before it (no state yet: empty). */
export function sceneAtStep(traj: Trajectory, step: number): { records: GaussianRecord[]; errors: string[] } {
  let state: unknown[] = [];
  for (const rec of traj.steps) {
    if (rec.step > step) break;
    if (Array.isArray(rec.state)) state = rec.state;
  }
  const records: GaussianRecord[] = [];
  const errors: string[] = [];
  state.forEach((item, i) => {
    const r = parseSceneItem(item, i);
    if (r.ok) records.push(r.record);
    else errors.push(r.error);
  });
  return { records, errors };
}

async function openTrajectory(source: Extract<DebugSource, { kind: 'trajectory' }>, opts: SourceOptions): Promise<OpenedScene> {
  const { text, name } = readTrajectoryText(source, opts.home);
  const whole = text.endsWith('\n') ? text : `${text}\n`;
  const traj = opts.parse ? await opts.parse(whole) : parseTrajectory(whole);
  if (traj.steps.length === 0) {
    const why = traj.badLines.length ? ` (line ${traj.badLines[0]} is not a trajectory record)` : '';
    throw new DebugSourceError(`${name} holds no trajectory steps${why}: a trajectory is JSONL with {"step", "tool", ...} records`);
  }
  const steps = traj.steps.map((s) => s.step);
  const step = source.step ?? steps[steps.length - 1];
  if (!steps.includes(step)) throw new DebugSourceError(`${name} has no step ${step} (steps ${steps[0]}..${steps[steps.length - 1]})`);
  const { records, errors } = sceneAtStep(traj, step);
  if (errors.length) throw new DebugSourceError(`${name}: the state at step ${step} is not a valid scene: ${errors.slice(0, 3).join('; ')}`);
  const warnings: string[] = [];
  if (traj.truncated) warnings.push('the last line of the trajectory was cut off and is ignored');
  let task: LoadedTask | null = null;
  const taskId = traj.header?.task;
  if (taskId) {
    try {
      task = await (opts.loadTask ? opts.loadTask(taskId) : loadTask(taskId, { tasksDir: opts.tasksDir }));
    } catch (error) {
      warnings.push(`task '${taskId}' could not be loaded (${errorText(error)}); named views are the standard orbits and there are no photos`);
    }
  } else {
    warnings.push('the trajectory has no header: named views are the standard orbits and there are no photos');
  }
  return { label: `${name}, step ${step}${taskId ? ` (${taskId})` : ''}`, records, task, warnings, steps, step };
}

function openPly(base64: string, name = 'uploaded .ply'): OpenedScene {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw new DebugSourceError(`${name}: the upload is not base64`);
  const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
  let parsed;
  try {
    parsed = parsePly(bytes);
  } catch (error) {
    throw new DebugSourceError(`${name}: ${errorText(error)}`);
  }
  return { label: name, records: parsed.records, task: null, warnings: parsed.warnings, steps: null, step: null };
}

function openSceneJson(text: string, name = 'uploaded scene'): OpenedScene {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DebugSourceError(`${name} is not valid JSON (${errorText(error)})`);
  }
  const scene = parseSceneDocument(json);
  if (!scene.ok) {
    const more = scene.errors.length > 3 ? ` (and ${scene.errors.length - 3} more)` : '';
    throw new DebugSourceError(`${name}: ${scene.errors.slice(0, 3).join('; ')}${more}`);
  }
  return { label: name, records: scene.records, task: null, warnings: scene.warnings, steps: null, step: null };
}
