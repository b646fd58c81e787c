// File side of .ply export (import goes through src/main/formats) and the scenes `splatlab export
// ply` can write: a task's fit, a scene file, or the scene of a trajectory after a given step.
// Inputs: paths. Outputs: records / files. Invariant: errors are one line naming the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { serialisePly } from '../../shared/authoring/import/ply';
import { fromCompactRecord } from '../../shared/scene/records';
import type { GaussianRecord } from '../../shared/scene/gaussian';
import { parseSceneFile, sceneFileJson } from '../../shared/scene/input';
import { readTrajectory } from '../env/trajectory';
import { readSceneNpz } from '../io/npz';
import { readFit, readSpec, recordsFromNpz } from '../tasks/load';
import { readObjectDir, resolveTasksDir, taskFile } from '../tasks/paths';
import { formatJson } from './task-files';

export function writePlyFile(path: string, records: readonly GaussianRecord[]): void {
  writeFileSync(path, serialisePly(records));
}

/** Writes records as a scene file ({"gaussians": [compact, ...]}, one Gaussian per line). */
export function writeSceneFile(path: string, records: readonly GaussianRecord[]): void {
  writeFileSync(path, `${formatJson(sceneFileJson(records))}\n`);
}

/** Lines describing what an imported scene would need to become a valid episode scene. */
export function sceneLimitNotes(records: readonly GaussianRecord[]): string[] {
  const count = (f: (r: GaussianRecord) => boolean): number => records.filter(f).length;
  const notes: string[] = [];
  const outside = count((r) => r.pos.some((v) => Math.abs(v) > 1.25));
  const scales = count((r) => r.scale.some((v) => v < 0.005 || v > 0.5));
  const faint = count((r) => r.opacity < 0.05);
  if (outside) notes.push(`${outside} Gaussian(s) lie outside [-1.25, 1.25]^3 (an episode rejects them)`);
  if (scales) notes.push(`${scales} Gaussian(s) have scales outside [0.005, 0.5] (clamped when loaded)`);
  if (faint) notes.push(`${faint} Gaussian(s) have opacity below 0.05 (raised when loaded)`);
  if (records.length > 300) notes.push(`${records.length} Gaussians exceed a task's budget of 300`);
  return notes;
}

export function readSceneJson(path: string): GaussianRecord[] {
  if (!existsSync(path)) throw new Error(`no such file ${path}`);
  try {
    return parseSceneFile(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}

/** The fitted Gaussians of a task's object (fit.json). */
export function taskFit(taskId: string, tasksDir?: string): GaussianRecord[] {
  const dir = resolveTasksDir(tasksDir);
  const spec = readSpec(dir, taskId);
  return readFit(readObjectDir(dir, spec.object), `task ${taskId}`);
}

/** The starting scene of a task: its init_npz, or empty. */
export function taskStart(taskId: string, tasksDir?: string): GaussianRecord[] {
  const dir = resolveTasksDir(tasksDir);
  const spec = readSpec(dir, taskId);
  if (spec.init_npz === null) return [];
  return recordsFromNpz(readSceneNpz(new Uint8Array(readFileSync(taskFile(dir, spec.init_npz)))));
}

/**
 * The scene after step `step` of a trajectory: the last logged state at or before it, else the
 * task's starting scene (no call had changed it yet).
 */
export function trajectoryScene(path: string, step: number, tasksDir?: string): GaussianRecord[] {
  if (!existsSync(path)) throw new Error(`no such file ${path}`);
  const traj = readTrajectory(path);
  const last = traj.steps.length ? traj.steps[traj.steps.length - 1].step : -1;
  if (step > last) throw new Error(`${path} ends at step ${last}; there is no step ${step}`);
  const withState = traj.steps.filter((s) => s.step <= step && s.state !== undefined);
  const rec = withState[withState.length - 1];
  if (rec?.state) return rec.state.map((c) => fromCompactRecord(c));
  if (!traj.header) throw new Error(`${path} has no header and no scene state at or before step ${step}`);
  return taskStart(traj.header.task, tasksDir);
}
