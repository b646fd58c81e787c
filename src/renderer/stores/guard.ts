// Busy and error state around LabApi calls, for stores whose views show one spinner and one error
// line: `guarded(work)` sets busy while it runs and turns a thrown error into `error` (and null);
// `errorCode` keeps the LabApi code of that error (forbidden, in_use, ...) for views that show a
// state rather than a line (an episode open elsewhere is read-only here).
import { ref } from 'vue';
import { LabCallError, type LabErrorCode } from '../../shared/api/messages';

export function useGuard() {
  const busy = ref(false);
  const error = ref<string | null>(null);
  const errorCode = ref<LabErrorCode | null>(null);

  async function guarded<T>(work: () => Promise<T>): Promise<T | null> {
    busy.value = true;
    error.value = null;
    errorCode.value = null;
    try {
      return await work();
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      errorCode.value = e instanceof LabCallError ? e.code : 'failed';
      return null;
    } finally {
      busy.value = false;
    }
  }

  return { busy, error, errorCode, guarded };
}
