// The banded CPU fit backend (src/shared/authoring/fit/backend-bands.ts) with a helper thread, so
// one fit uses two cores (issue 40 item 1, docs/PERFORMANCE.md "Reference fit"). The helper is the
// job 'author.fit.bands' (threads/jobs/fit-bands.ts) on a one-thread WorkerPool of the backend's
// own: it blocks its thread for a whole fit, so it must not take a thread of the lab's pool that
// other jobs wait for. A fit that itself runs on the lab's pool (job 'author.fit') starts it from
// there.
// Output: a FitBackend; dispose() ends its pool. Invariant: the fit's results equal those of
// bandFitBackend() without helpers, bit for bit.
import { bandFitBackend, type BandFitBackend, type BandHelpers, type BandOptions } from '../../../shared/authoring/fit/backend-bands';
import { WorkerPool } from '../../workers/pool';

/** Helpers on a one-thread pool started on first use and closed by close(). */
export function poolBandHelpers(): BandHelpers {
  let pool: WorkerPool | null = null;
  return {
    start: (views, frame) => {
      pool ??= new WorkerPool({ size: 1 });
      return pool.run('author.fit.bands', { views: views.map((v) => ({ photo: v.photo, mask: v.mask })), frame }, { client: 'fit-bands' });
    },
    close: () => {
      void pool?.close();
      pool = null;
    },
  };
}

/** The CPU fit on this thread and one helper thread. */
export function parallelCpuFitBackend(opts: BandOptions = {}): BandFitBackend {
  return bandFitBackend(poolBandHelpers(), opts);
}
