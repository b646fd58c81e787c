// SplatBench's main half (docs/DESIGN.md section 13): its tasks are an object folder (photos,
// cameras, anchors, fit) plus an optional start scene, its live episode is SplatEnv.
// Input: a spec head or a loaded task. Output: LoadedTask, TaskSummary, SplatEnv, the pure Episode.
// Invariant: a task of another kind is refused with one line before anything is read.
import { existsSync } from 'node:fs';
import { kindModule } from '../../../shared/kinds/registry';
import { splatbenchKind } from '../../../shared/kinds/splatbench/kind';
import { taskSummary, TaskSummarySchema, type TaskSpecHead } from '../../../shared/task/schema';
import { SplatEnv } from './env';
import { splatConformance } from './conformance';
import { loadTask, readCameras, readSpec, TaskLoadError, type LoadedTask } from '../../tasks/load';
import { readObjectDir, taskFile } from '../../tasks/paths';
import type { KindTask, MainKindModule } from '../kind';

/** True when the task is a SplatBench task (sculpt, reassembly, one-shot). */
export function isSplatTask(task: KindTask): task is LoadedTask {
  return kindModule(task.spec.kind).family === splatbenchKind.family;
}

/** The task as a SplatBench task, or one line saying what needs one. */
export function asSplatTask(task: KindTask, what = 'this'): LoadedTask {
  if (!isSplatTask(task)) throw new TaskLoadError(`task ${task.spec.task_id} is a '${task.spec.kind}' task; ${what} needs a SplatBench task (sculpt, reassembly or one-shot)`);
  return task;
}

export const splatbenchMain: MainKindModule = {
  family: splatbenchKind.family,
  load: (tasksDir, head, opts) => loadTask(head.task_id, { ...opts, tasksDir }),
  summary: (tasksDir: string, head: TaskSpecHead) => {
    const spec = readSpec(tasksDir, head.task_id);
    const cameras = readCameras(readObjectDir(tasksDir, spec.object), `task ${head.task_id}`);
    return TaskSummarySchema.parse(taskSummary(spec, cameras.reference));
  },
  dataFiles: (tasksDir, head) => {
    const spec = readSpec(tasksDir, head.task_id);
    const files = [readObjectDir(tasksDir, spec.object)];
    if (spec.init_npz && existsSync(taskFile(tasksDir, spec.init_npz))) files.push(taskFile(tasksDir, spec.init_npz));
    return files;
  },
  reset: (task, options) => SplatEnv.reset(asSplatTask(task), options),
  sceneGraded: true,
  conformance: (task, grader) => splatConformance(asSplatTask(task), grader),
  unload: (task, grader) => grader.release(asSplatTask(task)),
  replayViews: (task) => asSplatTask(task).heldout.map((v) => v.name),
  rules: (task) => {
    const t = asSplatTask(task);
    return splatbenchKind.rules(splatbenchKind.config(t.spec, t.reference), t.init);
  },
};
