// The task registry (docs/AGENTS.md "Tasks"): every task of a tasks folder with its kind, family,
// budgets, split, source and content hash, read through each kind's own main module. The CLI's
// `splatlab tasks`, the MCP start_episode schema, the RL protocol's GET /tasks and the lab's task
// list (LabApi tasks.list, the UI's first screen) list it.
// Input: a tasks folder. Output: TaskEntry[] sorted by id (or TaskListItem[]: each entry beside
// its public summary), and one line per unreadable task.
// Invariant: entries are public (src/shared/task/registry.ts); nothing here decodes photos or
// grades. Each data file is hashed once per change (size and mtime), so listing 600 tasks that
// share object folders reads every file once, not once per task. The serving paths (LabApi
// tasks.list, the RL protocol's GET /tasks) list through the async twins (taskListingAsync): the
// data files are listed, read and hashed in chunks from a stream, so a large task set does not
// hold the event loop (issue 38 item 1); the CLI's synchronous listing gives the same hashes.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
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

/** filesUnder off the event loop (listed on libuv's pool); the same order. */
async function filesUnderAsync(path: string): Promise<string[]> {
  const st = await stat(path).catch(() => null);
  if (!st) return [];
  if (!st.isDirectory()) return [path];
  const entries = (await readdir(path, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const nested = await Promise.all(entries.map((e) => filesUnderAsync(join(path, e.name))));
  return nested.flat();
}

/** sha256 of each file's bytes, kept while its size and mtime stay the same. */
const digests = new Map<string, { size: number; mtimeMs: number; hex: string }>();
/** Files being hashed from a stream now (by path, size and mtime): concurrent listings share one read. */
const hashing = new Map<string, Promise<string>>();

const known = (path: string, st: { size: number; mtimeMs: number }): string | null => {
  const k = digests.get(path);
  return k && k.size === st.size && k.mtimeMs === st.mtimeMs ? k.hex : null;
};

function fileDigest(path: string): string {
  const st = statSync(path);
  const hit = known(path, st);
  if (hit) return hit;
  const hex = createHash('sha256').update(readFileSync(path)).digest('hex');
  digests.set(path, { size: st.size, mtimeMs: st.mtimeMs, hex });
  return hex;
}

/** fileDigest off the event loop: the file read from a stream, hashed a chunk at a time. */
async function fileDigestAsync(path: string): Promise<string> {
  const st = await stat(path);
  const hit = known(path, st);
  if (hit) return hit;
  const key = `${path}\0${st.size}\0${st.mtimeMs}`;
  let pending = hashing.get(key);
  if (!pending) {
    pending = (async () => {
      const h = createHash('sha256');
      for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
      const hex = h.digest('hex');
      digests.set(path, { size: st.size, mtimeMs: st.mtimeMs, hex });
      return hex;
    })().finally(() => hashing.delete(key));
    hashing.set(key, pending);
  }
  return pending;
}

/** sha256 over the sorted (relative path, sha256 of the bytes) pairs of the task's files. */
function contentHash(tasksDir: string, files: readonly string[]): string {
  return hashPairs(tasksDir, [...new Set(files.flatMap(filesUnder))].sort(), fileDigest);
}

/** contentHash off the event loop (the same hash). */
async function contentHashAsync(tasksDir: string, files: readonly string[]): Promise<string> {
  const all = [...new Set((await Promise.all(files.map(filesUnderAsync))).flat())].sort();
  const hexes = new Map<string, string>();
  // One file at a time: a large set's files are not all read at once.
  for (const f of all) hexes.set(f, await fileDigestAsync(f));
  return hashPairs(tasksDir, all, (f) => hexes.get(f)!);
}

function hashPairs(tasksDir: string, all: readonly string[], digestOf: (file: string) => string): string {
  const h = createHash('sha256');
  for (const f of all) {
    h.update(taskRelative(tasksDir, f));
    h.update('\0');
    h.update(digestOf(f));
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

/** What a task's list row is made of, read from its spec (small JSON); its files are hashed apart. */
function listItemParts(tasksDir: string, id: string) {
  const head = readSpecHead(tasksDir, id);
  const m = mainKind(head.kind);
  const summary = m.summary(tasksDir, head);
  const specPath = taskFile(tasksDir, `${id}.json`);
  const raw = JSON.parse(readFileSync(specPath, 'utf8')) as Record<string, unknown>;
  const data = m.dataFiles(tasksDir, head);
  const row = (content_hash: string): TaskListItem => {
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
      content_hash,
    });
    return TaskListItemSchema.parse({ ...summary, entry });
  };
  return { files: [specPath, ...data], row };
}

/** One task's entry beside its public summary, from one read of the spec (throws as taskEntry). */
export function taskListItem(tasksDir: string, id: string): TaskListItem {
  const { files, row } = listItemParts(tasksDir, id);
  return row(contentHash(tasksDir, files));
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

/** taskListing for a serving path: each task's files hashed off the event loop, one task after another. */
export async function taskListingAsync(tasksDir?: string): Promise<TaskListing> {
  const dir = resolveTasksDir(tasksDir);
  const rows = readEachTask(dir, (id) => ({ id, parts: listItemParts(dir, id) }));
  const items: TaskListItem[] = [];
  const problems = [...rows.problems];
  for (const { parts } of rows.items) {
    try {
      items.push(parts.row(await contentHashAsync(dir, parts.files)));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { items, problems };
}

export function taskRegistry(tasksDir?: string): TaskRegistry {
  const { items, problems } = taskListing(tasksDir);
  return { tasks: items.map((i) => i.entry), problems };
}

/** taskRegistry for a serving path (the RL protocol's GET /tasks): hashed off the event loop. */
export async function taskRegistryAsync(tasksDir?: string): Promise<TaskRegistry> {
  const { items, problems } = await taskListingAsync(tasksDir);
  return { tasks: items.map((i) => i.entry), problems };
}

/** The lab's task list (LabApi tasks.list): the registry's rows; unreadable tasks are left out (`splatlab tasks` names them). */
export async function listRegistryTasks(tasksDir?: string): Promise<TaskListItem[]> {
  return (await taskListingAsync(tasksDir)).items;
}
