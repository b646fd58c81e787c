// Job 'author.fit': the reference fit (src/main/authoring/fit/compute.ts, on the CPU float64
// backend in row bands with a helper thread (authoring/fit/bands.ts), the visual hull's start included) on a worker thread, so an import's, a build's or the
// Author view's fit never holds the event loop (issue 38 item 1). Progress: one report at most
// every 100 ms (and at the last step) whose message is the JSON of a FitTickMessage (compute.ts) (the losses
// since the previous report, the elapsed time, a snapshot when one was rendered); aborting the
// job ends its thread (the pool's cancel). Input: FitRunInput. Output: FitRunResult.
// Invariant: every step's loss is in exactly one report, in order; the records are bit-identical
// to a fit of the same input on the main thread's banded CPU backend (with or without helpers).
import { parallelCpuFitBackend } from '../../authoring/fit/bands';
import { localRunner, type FitRunInput, type FitRunResult, type FitTick, type FitTickMessage } from '../../authoring/fit/compute';
import type { JobContext } from '../../workers/protocol';

const REPORT_EVERY_MS = 100;

export async function fitJob(input: FitRunInput, ctx: JobContext): Promise<FitRunResult> {
  let losses: number[] = [];
  let snapshot: FitTick['snapshot'];
  let last = 0;
  // The step's row bands on this thread and a helper thread of its own (issue 40: both cores).
  const backend = parallelCpuFitBackend();
  try {
    return await localRunner(backend)(input, (t) => {
      losses.push(...t.losses);
      if (t.snapshot) snapshot = t.snapshot;
      const now = Date.now();
      if (t.step < t.steps && now - last < REPORT_EVERY_MS) return;
      last = now;
      const message: FitTickMessage = { losses, elapsedMs: t.elapsedMs, ...(snapshot ? { snapshot } : {}) };
      ctx.progress(t.step, t.steps, JSON.stringify(message));
      losses = [];
      snapshot = undefined;
    });
  } finally {
    backend.dispose?.();
  }
}
