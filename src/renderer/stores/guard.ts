// Busy and error state around LabApi calls, for stores whose views show one spinner and one error
// line: `guarded(work)` sets busy while it runs and turns a thrown error into `error` (and null).
import { ref } from 'vue';

export function useGuard() {
  const busy = ref(false);
  const error = ref<string | null>(null);

  async function guarded<T>(work: () => Promise<T>): Promise<T | null> {
    busy.value = true;
    error.value = null;
    try {
      return await work();
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      return null;
    } finally {
      busy.value = false;
    }
  }

  return { busy, error, guarded };
}
