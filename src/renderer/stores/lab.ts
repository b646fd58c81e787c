// Lab store (Pinia setup store): app info (version, GPU path) and the public task list (the task
// registry's rows, as `splatlab tasks --json` lists them, beside each task's summary).
// Invariant: holds only what LabApi returns to any player; no hidden data ever lands here.
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AppInfo } from '../../shared/api/schemas';
import type { LabApi } from '../../shared/api/lab';
import type { TaskListItem } from '../../shared/task/registry';

export const useLabStore = defineStore('lab', () => {
  const info = ref<AppInfo | null>(null);
  const tasks = ref<TaskListItem[]>([]);
  const loading = ref(false);
  const error = ref<string | null>(null);

  async function load(api: LabApi): Promise<void> {
    loading.value = true;
    error.value = null;
    try {
      const [appInfo, list] = await Promise.all([api.call('app.info', {}), api.call('tasks.list', {})]);
      info.value = appInfo;
      tasks.value = list;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    } finally {
      loading.value = false;
    }
  }

  /** The task list again, after a save or an import added a task. */
  async function reloadTasks(api: LabApi): Promise<void> {
    tasks.value = await api.call('tasks.list', {});
  }

  return { info, tasks, loading, error, load, reloadTasks };
});
