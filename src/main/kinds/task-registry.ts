// The task registry (docs/AGENTS.md "Tasks"): every task of a tasks folder with its kind, family,
// budgets, split, source and content hash, read through each kind's own main module. The CLI's
// `splatlab tasks`, the MCP start_episode schema and the RL protocol's GET /tasks list it.
// Input: a tasks folder. Output: TaskEntry[] sorted by id, and one line per unreadable task.
// Invariant: entries are public (src/shared/task/registry.ts); nothing here loads photos or grades.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { kindModule } from '../../shared/kinds/registry';
import { TASK_SPLITS, TaskEntrySchema, type TaskEntry } from '../../shared/task/registry';
import { readSpecHead, taskIds } from '../tasks/load';
import { resolveTasksDir } from '../tasks/paths';
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

function contentHash(tasksDir: string, files: readonly string[]): string {
  const h = createHash('sha256');
  const all = [...new Set(files.flatMap(filesUnder))].sort();
  for (const f of all) {
    h.update(relative(tasksDir, f).split('\\').join('/'));
    h.update('\0');
    h.update(readFileSync(f));
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
  const head = readSpecHead(tasksDir, id);
  const m = mainKind(head.kind);
  const summary = m.summary(tasksDir, head);
  const specPath = join(tasksDir, `${id}.json`);
  const raw = JSON.parse(readFileSync(specPath, 'utf8')) as Record<string, unknown>;
  const data = m.dataFiles(tasksDir, head);
  return TaskEntrySchema.parse({
    id,
    kind: head.kind,
    family: kindModule(head.kind).family,
    budgets: { max_tool_calls: summary.budgets.maxToolCalls, max_gaussians: summary.budgets.maxGaussians, max_renders: summary.budgets.maxRenders },
    split: splitOf(raw),
    source: data.length ? relative(tasksDir, data[0]).split('\\').join('/') : `${id}.json`,
    content_hash: contentHash(tasksDir, [specPath, ...data]),
  });
}

export function taskRegistry(tasksDir?: string): TaskRegistry {
  const dir = resolveTasksDir(tasksDir);
  const tasks: TaskEntry[] = [];
  const problems: string[] = [];
  for (const id of taskIds(dir)) {
    try {
      tasks.push(taskEntry(dir, id));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return { tasks, problems };
}
