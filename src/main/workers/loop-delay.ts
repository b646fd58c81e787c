// How long the event loop is held (issue 29 item 1): one `monitorEventLoopDelay` histogram per
// process since it started (start-up included), and a windowed figure over the last seconds
// (the load now, without start-up), both read by `app.info` (src/main/services/lab.ts) and
// `splatlab doctor`. Heavy work belongs on the worker pool; this says whether it stayed there.
// Output: the delay's p50, p99, max and mean in milliseconds, and the seconds they cover.
// Invariant: reading never resets anything (every reader sees the same figures); the window is
// kept as one histogram per second for the last MAX_WINDOW_S seconds, merged when read.
import { createHistogram, monitorEventLoopDelay, type IntervalHistogram, type RecordableHistogram } from 'node:perf_hooks';
import type { EventLoopDelay } from '../../shared/api/schemas';

/** Sampling resolution: delays shorter than this are not resolved. */
export const LOOP_DELAY_RESOLUTION_MS = 10;
/** The longest window `recentEventLoopDelay` can cover, and the default one app.info reports. */
export const MAX_WINDOW_S = 120;
export const DEFAULT_WINDOW_S = 10;

let histogram: IntervalHistogram | null = null;
let startedAt = 0;

interface Bucket {
  /** performance.now() of the bucket's first second. */
  start: number;
  h: RecordableHistogram;
}

const buckets: Bucket[] = [];
let lastTick = 0;

/**
 * The windowed sampler: a timer every LOOP_DELAY_RESOLUTION_MS records the time since its last
 * run (what monitorEventLoopDelay records, in the same units) into the current second's bucket.
 */
function tick(): void {
  const now = performance.now();
  let bucket = buckets.at(-1);
  if (!bucket || now - bucket.start >= 1000) {
    bucket = { start: bucket ? bucket.start + Math.floor((now - bucket.start) / 1000) * 1000 : now, h: createHistogram() };
    buckets.push(bucket);
    while (buckets.length > 0 && now - buckets[0].start > MAX_WINDOW_S * 1000 + 1000) buckets.shift();
  }
  bucket.h.record(Math.max(1, Math.round((now - lastTick) * 1e6)));
  lastTick = now;
}

/** Starts the process's monitor and windowed sampler (idempotent). */
export function watchEventLoop(): void {
  if (histogram) return;
  histogram = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  histogram.enable();
  startedAt = performance.now();
  lastTick = startedAt;
  setInterval(tick, LOOP_DELAY_RESOLUTION_MS).unref();
}

/** The delay past the sampling interval (the histogram times the interval's timer itself), in ms. */
const ms = (ns: number): number => (Number.isFinite(ns) ? Math.max(0, Math.round((ns / 1e6 - LOOP_DELAY_RESOLUTION_MS) * 100) / 100) : 0);

function figures(h: IntervalHistogram | RecordableHistogram, sinceMs: number): EventLoopDelay {
  const none = h.count === 0;
  return {
    p50Ms: none ? 0 : ms(h.percentile(50)),
    p99Ms: none ? 0 : ms(h.percentile(99)),
    maxMs: none ? 0 : ms(h.max),
    meanMs: none ? 0 : ms(h.mean),
    sinceS: Math.round(sinceMs / 100) / 10,
  };
}

/** The delay since the monitor started (it starts here if it was not running: then all 0). */
export function eventLoopDelay(): EventLoopDelay {
  watchEventLoop();
  return figures(histogram as IntervalHistogram, performance.now() - startedAt);
}

/**
 * The delay over the last `windowS` seconds (whole seconds of samples, the current one included;
 * `sinceS` says how many seconds the figures cover: less while the sampler is younger).
 */
export function recentEventLoopDelay(windowS = DEFAULT_WINDOW_S): EventLoopDelay {
  watchEventLoop();
  const now = performance.now();
  const from = now - Math.min(MAX_WINDOW_S, Math.max(1, windowS)) * 1000;
  const merged = createHistogram();
  let first = now;
  for (const b of buckets) {
    if (b.start + 1000 <= from) continue;
    merged.add(b.h);
    first = Math.min(first, b.start);
  }
  return figures(merged, now - first);
}
