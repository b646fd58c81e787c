// Re-scrambling an existing object (`splatlab scramble --task ID`): reads the object's fit.json,
// scrambles it with a new seed or part count, and replaces init_reassembly.npz and
// parts_truth.json (and writes the reassembly spec if it was missing). Anchors do not depend on
// the scramble and are kept. Invariant: both files are written beside the targets and renamed,
// so a failure leaves the previous scramble in place.
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { scramble, scrambleSeed } from '../../shared/authoring/scramble/scramble';
import type { PartsTruth } from '../../shared/authoring/scramble/truth';
import { readFit, readSpec } from '../tasks/load';
import { checkNotBuiltIn, objectDir, resolveTasksDir } from '../tasks/paths';
import { INIT_NPZ, taskSpecs, writeJson, writeReassembly } from './task-files';

export interface RescrambleOptions {
  seed?: number; // build seed (default 0): the scramble uses scrambleSeed(object, seed), as author build
  k?: number;
  tasksDir?: string;
}

export function rescrambleTask(taskId: string, opts: RescrambleOptions = {}): { object: string; truth: PartsTruth; specWritten: boolean } {
  const tasksDir = resolveTasksDir(opts.tasksDir);
  checkNotBuiltIn(tasksDir, [taskId]);
  const spec = readSpec(tasksDir, taskId);
  const dir = objectDir(tasksDir, spec.object);
  const fit = readFit(dir, `task ${taskId}`);
  const { records, truth } = scramble(fit, { seed: scrambleSeed(spec.object, opts.seed ?? 0), k: opts.k ?? 6 });
  const tmp = mkdtempSync(join(dir, '.scramble-'));
  try {
    writeReassembly(tmp, records, truth);
    renameSync(join(tmp, INIT_NPZ), join(dir, INIT_NPZ));
    renameSync(join(tmp, 'parts_truth.json'), join(dir, 'parts_truth.json'));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const reassembly = taskSpecs(spec.object).find((s) => s.kind === 'reassembly');
  const specPath = reassembly ? join(tasksDir, `${reassembly.task_id}.json`) : '';
  const specWritten = reassembly !== undefined && !existsSync(specPath);
  if (specWritten) writeJson(specPath, reassembly);
  return { object: spec.object, truth, specWritten };
}
