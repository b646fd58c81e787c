// The search kind's main half (docs/DESIGN.md section 13): a task is tasks/.../<id>.json naming
// its room document (procedural or captured); loading builds the room's Gaussians, collider and
// answerability once, the live
// episode is SearchEnv. Input: a spec head. Output: SearchTask, TaskSummary, SearchEnv, SearchRules.
// Invariant: a task of another kind is refused with one line before anything is read.
import { searchKind, searchRules, SearchTaskSpecSchema } from '../../../shared/kinds/search/kind';
import { TaskSummarySchema, type TaskSpecHead } from '../../../shared/task/schema';
import { SearchEnv, type SearchTask } from './env';
import { readCaptureDoc, resolveCapturePath } from './capture-scene';
import { isCaptureRoomFile, loadTaskScene, readRoom } from './scene';
import { readSpec, readSpecHead, TaskLoadError } from '../../tasks/load';
import type { KindTask, MainKindModule } from '../kind';
import { verifySearchImport } from './import';
import { exactSearchScore, searchSpecs } from './log-score';
import { searchReport } from './report';
import { taskFile } from '../../tasks/paths';

function asSearchTask(task: KindTask): SearchTask {
  if (task.spec.kind !== 'search' || !('scene' in task)) throw new TaskLoadError(`task ${task.spec.task_id} is a '${task.spec.kind}' task, not a search task`);
  return task as SearchTask;
}

export const searchMain: MainKindModule = {
  family: searchKind.family,
  load: async (tasksDir, head) => {
    const spec = readSpec(tasksDir, head.task_id, SearchTaskSpecSchema);
    let scene;
    try {
      scene = await loadTaskScene(tasksDir, spec);
    } catch (err) {
      throw new TaskLoadError(`task ${head.task_id}: ${(err as Error).message}`);
    }
    const task: SearchTask = { spec, dir: tasksDir, scene };
    return task;
  },
  summary: (tasksDir: string, head: TaskSpecHead) => {
    const spec = readSpec(tasksDir, head.task_id, SearchTaskSpecSchema);
    return TaskSummarySchema.parse({
      id: spec.task_id, kind: 'search', object: spec.room.replace(/^.*\//, '').replace(/\.json$/, ''),
      budgets: { maxToolCalls: spec.max_steps },
    });
  },
  dataFiles: (tasksDir, head) => {
    const room = readSpec(tasksDir, head.task_id, SearchTaskSpecSchema).room;
    const files = [taskFile(tasksDir, room)];
    // A captured room's files are data of the task too (a changed capture or mesh reloads it).
    if (isCaptureRoomFile(taskFile(tasksDir, room))) {
      const doc = readCaptureDoc(tasksDir, room);
      files.push(resolveCapturePath(tasksDir, doc.capture), ...(doc.mesh ? [resolveCapturePath(tasksDir, doc.mesh)] : []));
    } else files.push(...readRoom(taskFile(tasksDir, room)).nodes.flatMap((n) => (n.capture ? [taskFile(tasksDir, n.capture.file)] : [])));
    return files;
  },
  reset: (task, options) => SearchEnv.reset(asSearchTask(task), options),
  rules: (task) => {
    const t = asSearchTask(task);
    return searchRules(t.spec, t.scene.collider);
  },
  importRun: async (traj, tasksDir, taskId) => verifySearchImport(traj, await searchMain.load(tasksDir, readSpecHead(tasksDir, taskId))),
  runScore: (traj, tasksDir, taskId) => {
    const spec = searchSpecs(tasksDir)(taskId);
    return spec && traj.end ? exactSearchScore(spec, traj) : null;
  },
  report: (logs, tasksDir) => Promise.resolve(searchReport(logs, tasksDir)),
};
