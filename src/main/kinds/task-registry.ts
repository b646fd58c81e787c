// The task registry (docs/AGENTS.md "Tasks"): every task of a tasks folder with its kind, family,
// budgets, split, source and content hash, read through each kind's own main module. The CLI's
// `splatlab tasks`, the MCP start_episode schema, the RL protocol's GET /tasks and the lab's task
// list (LabApi tasks.list, the UI's first screen) list it.
// Input: a tasks folder. Output: TaskEntry[] sorted by id (or TaskListItem[]: each entry beside
// its public summary), and one line per unreadable task.
// Invariant: entries are public (src/shared/task/registry.ts); nothing here decodes photos or
// grades. Each data file is hashed once per change (size and mtime), so listing 600 tasks that
// share object folders reads every file once, not once per task.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { kindModule } from '../../shared/kinds/registry';
import { TASK_SPLITS, TaskEntrySchema, TaskListItemSchema, type TaskEntry, type TaskListItem } from '../../shared/task/registry';
import { readEachTask, readSpecHead } from '../tasks/load';
import { resolveTasksDir, taskFile, taskRelative } from '../tasks/paths';
import { mainKind } from './registry';

export interface TaskRegistry {
  tasks: TaskEntry[];
  problems: string[];
}

/** Every file under a path (itself when it is a file), sorted, so the hash does not depend on the disk's order. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => filesUnder(join(path, e.name)));
}

/** sha256 of each file's bytes, kept while its size and mtime stay the same. */
const digests = new Map<string, { size: number; mtimeMs: number; hex: string }>();

function fileDigest(path: string): string {
  const st = statSync(path);
  const known = digests.get(path);
  if (known && known.size === st.size && known.mtimeMs === st.mtimeMs) return known.hex;
  const hex = createHash('sha256').update(readFileSync(path)).digest('hex');
  digests.set(path, { size: st.size, mtimeMs: st.mtimeMs, hex });
  return hex;
}

/** sha256 over the sorted (relative path, sha256 of the bytes) pairs of the task's files. */
function contentHash(tasksDir: string, files: readonly string[]): string {
  const h = createHash('sha256');
  const all = [...new Set(files.flatMap(filesUnder))].sort();
  for (const f of all) {
    h.update(taskRelative(tasksDir, f));
    h.update('\0');
    h.update(fileDigest(f));
    h.update('\0');
  }
  return h.digest('hex');
}

function splitOf(raw: Record<string, unknown>): TaskEntry['split'] {
  const given = raw.split;
  if (typeof given === 'string' && (TASK_SPLITS as readonly string[]).includes(given)) return given as TaskEntry['split'];
  return raw.practice === true ? 'practice' : 'test';
}

/** One task's entry (throws the kind's one-line error for an unreadable task). */
export function taskEntry(tasksDir: string, id: string): TaskEntry {
  return taskListItem(tasksDir, id).entry;
}

/** One task's entry beside its public summary, from one read of the spec (throws as taskEntry). */
export function taskListItem(tasksDir: string, id: string): TaskListItem {
  const head = readSpecHead(tasksDir, id);
  const m = mainKind(head.kind);
  const summary = m.summary(tasksDir, head);
  const specPath = taskFile(tasksDir, `${id}.json`);
  const raw = JSON.parse(readFileSync(specPath, 'utf8')) as Record<string, unknown>;
  const data = m.dataFiles(tasksDir, head);
  const entry = TaskEntrySchema.parse({
    id,
    kind: head.kind,
    family: kindModule(head.kind).family,
    budgets: {
      max_tool_calls: summary.budgets.maxToolCalls,
      // SplatBench's own budgets, absent for a kind without a scene or renders (not zero).
      ...(summary.budgets.maxGaussians !== undefined ? { max_gaussians: summary.budgets.maxGaussians } : {}),
      ...(summary.budgets.maxRenders !== undefined ? { max_renders: summary.budgets.maxRenders } : {}),
    },
    split: splitOf(raw),
    source: data.length ? taskRelative(tasksDir, data[0]) : `${id}.json`,
    content_hash: contentHash(tasksDir, [specPath, ...data]),
  });
  return TaskListItemSchema.parse({ ...summary, entry });
}

export interface TaskListing {
  items: TaskListItem[];
  problems: string[];
}

/** Every readable task's list row (sorted by id) and one line per unreadable task. */
export function taskListing(tasksDir?: string): TaskListing {
  const dir = resolveTasksDir(tasksDir);
  return readEachTask(dir, (id) => taskListItem(dir, id));
}

export function taskRegistry(tasksDir?: string): TaskRegistry {
  const { items, problems } = taskListing(tasksDir);
  return { tasks: items.map((i) => i.entry), problems };
}

/** The lab's task list (LabApi tasks.list): the registry's rows; unreadable tasks are left out (`splatlab tasks` names them). */
export async function listRegistryTasks(tasksDir?: string): Promise<TaskListItem[]> {
  return taskListing(tasksDir).items;
}
