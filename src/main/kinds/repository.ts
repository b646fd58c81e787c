// The task repository of one lab process (docs/DESIGN.md, "Composition root"): every service gets
// tasks from here, so a task is loaded once and the same LoadedTask (and its RefView objects) is
// handed out again, which is what lets the graders' per-view photo caches hit. A task whose files
// changed on disk (a refit, a rebuilt scramble) is reloaded, and its old views are released.
// Inputs: the tasks folder; task ids. Output: a KindTask (get(): a SplatBench LoadedTask). Invariant: a returned task matches its
// files as they were when get() was called (the stamp covers the spec, the object folder's files
// and the init npz); listeners of onUnload see every LoadedTask that leaves the cache exactly once.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { KindTask } from './kind';
import { asSplatTask, loadAnyTask, mainKind } from './registry';
import { readSpecHead, type LoadedTask, type LoadOptions } from '../tasks/load';
import { taskFile } from '../tasks/paths';

type UnloadListener = (task: KindTask) => void;

interface Entry {
  stamp: string;
  task: Promise<KindTask>;
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

  /** `readViews`: how photos are decoded (the lab: on its worker pool, off the event loop). */
  constructor(readonly tasksDir: string, private readonly io: Pick<LoadOptions, 'readViews'> = {}) {}

  /** A SplatBench task as its files stand now (one line if the task is of another kind). */
  async get(taskId: string, what?: string): Promise<LoadedTask> {
    return asSplatTask(await this.getAny(taskId), what);
  }

  /** A task of any kind as its files stand now (loaded once per change of its files). */
  async getAny(taskId: string): Promise<KindTask> {
    const stamp = this.stamp(taskId);
    const hit = this.cache.get(taskId);
    if (hit && hit.stamp === stamp) return hit.task;
    if (hit) this.drop(taskId, hit);
    const task = loadAnyTask(taskId, { ...this.io, tasksDir: this.tasksDir });
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

  /** Called with each task that leaves the cache (owners release what they hold for it). */
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
    const specPath = taskFile(this.tasksDir, `${taskId}.json`);
    if (!existsSync(specPath)) return 'missing';
    const spec0 = statSync(specPath);
    const parts = [`spec:${spec0.mtimeMs}:${spec0.size}`];
    try {
      const head = readSpecHead(this.tasksDir, taskId);
      for (const file of mainKind(head.kind).dataFiles(this.tasksDir, head)) {
        if (!existsSync(file)) continue;
        const st = statSync(file);
        parts.push(...(st.isDirectory() ? mtimes(file, 1) : [`${file}:${st.mtimeMs}:${st.size}`]));
      }
    } catch {
      parts.push('unreadable');
    }
    return parts.join('|');
  }
}
