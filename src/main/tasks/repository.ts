// The task repository of one lab process (docs/DESIGN.md, "Composition root"): every service gets
// tasks from here, so a task is loaded once and the same LoadedTask (and its RefView objects) is
// handed out again, which is what lets the graders' per-view photo caches hit. A task whose files
// changed on disk (a refit, a rebuilt scramble) is reloaded, and its old views are released.
// Inputs: the tasks folder; task ids. Output: LoadedTask. Invariant: a returned task matches its
// files as they were when get() was called (the stamp covers the spec, the object folder's files
// and the init npz); listeners of onUnload see every LoadedTask that leaves the cache exactly once.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadTask, readSpec, type LoadedTask } from './load';
import { objectDir } from './paths';

type UnloadListener = (task: LoadedTask) => void;

interface Entry {
  stamp: string;
  task: Promise<LoadedTask>;
}

function mtimes(dir: string, depth: number): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && depth > 0) out.push(...mtimes(p, depth - 1));
    else if (e.isFile()) {
      const st = statSync(p);
      out.push(`${e.name}:${st.mtimeMs}:${st.size}`);
    }
  }
  return out.sort();
}

export class TaskRepository {
  private readonly cache = new Map<string, Entry>();
  private readonly listeners: UnloadListener[] = [];

  constructor(readonly tasksDir: string) {}

  /** The task as its files stand now (loaded once per change of its files). */
  async get(taskId: string): Promise<LoadedTask> {
    const stamp = this.stamp(taskId);
    const hit = this.cache.get(taskId);
    if (hit && hit.stamp === stamp) return hit.task;
    if (hit) this.drop(taskId, hit);
    const task = loadTask(taskId, { tasksDir: this.tasksDir });
    const entry = { stamp, task };
    this.cache.set(taskId, entry);
    task.catch(() => {
      if (this.cache.get(taskId) === entry) this.cache.delete(taskId);
    });
    return task;
  }

  /** Forgets a task (its next get() reloads it); listeners are told. */
  invalidate(taskId: string): void {
    const hit = this.cache.get(taskId);
    if (hit) this.drop(taskId, hit);
  }

  invalidateAll(): void {
    for (const [id, entry] of [...this.cache]) this.drop(id, entry);
  }

  /** Called with each LoadedTask that leaves the cache (owners release what they hold for it). */
  onUnload(listener: UnloadListener): void {
    this.listeners.push(listener);
  }

  get size(): number {
    return this.cache.size;
  }

  private drop(taskId: string, entry: Entry): void {
    this.cache.delete(taskId);
    entry.task.then((t) => this.listeners.forEach((l) => l(t)), () => undefined);
  }

  private stamp(taskId: string): string {
    const specPath = join(this.tasksDir, `${taskId}.json`);
    if (!existsSync(specPath)) return 'missing';
    const spec0 = statSync(specPath);
    const parts = [`spec:${spec0.mtimeMs}:${spec0.size}`];
    try {
      const spec = readSpec(this.tasksDir, taskId);
      parts.push(...mtimes(objectDir(this.tasksDir, spec.object), 1));
      if (spec.init_npz) {
        const init = join(this.tasksDir, spec.init_npz);
        if (existsSync(init)) parts.push(`init:${statSync(init).mtimeMs}`);
      }
    } catch {
      parts.push('unreadable');
    }
    return parts.join('|');
  }
}
