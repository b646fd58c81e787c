// The main halves of the task kinds (docs/DESIGN.md section 13) and what is written once over
// them: loading any task, listing every task, the pure rules for replay. Each kind's module is
// indexed here from its main manifest (./manifests.ts, the only caller of registerMainKind);
// nothing here branches on the kind.
// Input: task ids, spec heads, loaded tasks. Output: KindTask, TaskSummary[], KindRules.
// Invariant: every family of src/shared/kinds/registry.ts has exactly one main module.
import type { KindRules } from '../../shared/kinds/kind';
import { kindModule } from '../../shared/kinds/registry';
import type { TaskKind } from '../../shared/task/schema';
import { readEachTask, readSpecHead, TaskLoadError, type LoadedTask, type LoadOptions, type TaskScan } from '../tasks/load';
import { resolveTasksDir } from '../tasks/paths';
import type { KindTask, MainKindModule } from './kind';

const MAIN_KINDS: MainKindModule[] = [];

/** Every kind's main half, in registration order (`splatlab report` asks each for its own part). */
export function mainKinds(): readonly MainKindModule[] {
  return MAIN_KINDS;
}

/** Adds a kind's main half (from its manifest; its shared half must be registered first, src/shared/kinds/registry.ts). */
export function registerMainKind(m: MainKindModule): void {
  if (MAIN_KINDS.some((k) => k.family === m.family)) throw new Error(`a main kind module of family '${m.family}' is already registered`);
  MAIN_KINDS.push(m);
}

/** The main half of a kind (or of a task's kind). */
export function mainKind(of: KindTask | TaskKind): MainKindModule {
  const kind = typeof of === 'string' ? of : of.spec.kind;
  const family = kindModule(kind).family;
  const m = MAIN_KINDS.find((k) => k.family === family);
  if (!m) throw new Error(`no environment for task kind '${kind}'`);
  return m;
}

/**
 * A task of a kind graded by the lab's grader from its replayed scene (`sceneGraded`: SplatBench's),
 * which is a LoadedTask (photos, cameras, views). The machinery that serves such kinds alone (the
 * grader, the study's model verification, the repository's photo cache) narrows with these, never
 * naming the kind.
 */
function isSplatTask(task: KindTask): task is LoadedTask {
  return mainKind(task).sceneGraded === true;
}

/** The task as a scene-graded (SplatBench) task, or one line saying what needs one. */
export function asSplatTask(task: KindTask, what = 'this'): LoadedTask {
  if (!isSplatTask(task)) throw new TaskLoadError(`task ${task.spec.task_id} is a '${task.spec.kind}' task; ${what} needs a SplatBench task (sculpt, reassembly or one-shot)`);
  return task;
}

/** Loads a task of any kind by id. */
export async function loadAnyTask(taskId: string, opts: LoadOptions = {}): Promise<KindTask> {
  const tasksDir = resolveTasksDir(opts.tasksDir);
  const head = readSpecHead(tasksDir, taskId);
  return mainKind(head.kind).load(tasksDir, head, opts);
}

/** A fresh pure episode of a loaded task (for replay, regrading, results). */
export function rulesFor(task: KindTask): KindRules {
  return mainKind(task).rules(task);
}

/** Public summaries of every readable task of every kind (sorted by id), one line per unreadable one. */
export function scanAllTasks(tasksDir?: string): TaskScan {
  const dir = resolveTasksDir(tasksDir);
  const { items, problems } = readEachTask(dir, (id) => {
    const head = readSpecHead(dir, id);
    return mainKind(head.kind).summary(dir, head);
  });
  return { tasks: items, problems };
}

const toolsDocs = new Map<string, () => string>();

/** Indexes a kind's tools reference page (its main manifest's `toolsDoc`; src/main/kinds/manifests.ts). */
export function registerToolsDoc(family: string, doc: () => string): void {
  toolsDocs.set(family, doc);
}

/** The tools' reference page of a kind family, or one line saying it supplies none. */
export function toolsDocOf(family: string): string {
  const doc = toolsDocs.get(family);
  if (!doc) throw new Error(`kind '${family}' supplies no tools reference page (src/main/kinds/manifest.ts toolsDoc)`);
  return doc();
}
