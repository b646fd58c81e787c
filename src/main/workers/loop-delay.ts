// How long the event loop is held (issue 29 item 1): one `monitorEventLoopDelay` histogram per
// process, started on first use, read by `app.info` (src/main/services/lab.ts) and `splatlab
// doctor`. Heavy work belongs on the worker pool; this says whether it stayed there. Output:
// the delay's p50, p99, max and mean in milliseconds since the monitor started.
// Invariant: reading never resets the histogram (every reader sees the same run of figures).
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { EventLoopDelay } from '../../shared/api/schemas';

/** Sampling resolution: delays shorter than this are not resolved. */
export const LOOP_DELAY_RESOLUTION_MS = 10;

let histogram: IntervalHistogram | null = null;
let startedAt = 0;

/** Starts the process's monitor (idempotent). */
export function watchEventLoop(): void {
  if (histogram) return;
  histogram = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  histogram.enable();
  startedAt = performance.now();
}

/** The delay past the sampling interval (the histogram times the interval's timer itself), in ms. */
const ms = (ns: number): number => (Number.isFinite(ns) ? Math.max(0, Math.round((ns / 1e6 - LOOP_DELAY_RESOLUTION_MS) * 100) / 100) : 0);

/** The delay so far (the monitor starts here if it was not running: then the figures are all 0). */
export function eventLoopDelay(): EventLoopDelay {
  watchEventLoop();
  const h = histogram as IntervalHistogram;
  const none = h.count === 0;
  return {
    p50Ms: none ? 0 : ms(h.percentile(50)),
    p99Ms: none ? 0 : ms(h.percentile(99)),
    maxMs: none ? 0 : ms(h.max),
    meanMs: none ? 0 : ms(h.mean),
    sinceS: Math.round((performance.now() - startedAt) / 100) / 10,
  };
}
