// How long the event loop is held (issue 29 item 1): one `monitorEventLoopDelay` histogram per
// process since it started (start-up included), and a windowed figure over the last seconds
// (the load now, without start-up), both read by `app.info` (src/main/services/lab.ts) and
// `splatlab doctor`. Heavy work belongs on the worker pool; this says whether it stayed there.
// Output: the delay's p50, p99, max and mean in milliseconds, and the seconds they cover.
// Invariant: reading never resets anything (every reader sees the same figures); the window
// keeps every sample of the last MAX_WINDOW_S seconds (a ring of 100 a second), so any window
// up to that is exact to one sampling interval.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { EventLoopDelay } from '../../shared/api/schemas';

/** Sampling resolution: delays shorter than this are not resolved. */
export const LOOP_DELAY_RESOLUTION_MS = 10;
/** The longest window `recentEventLoopDelay` can cover, and the default one app.info reports. */
export const MAX_WINDOW_S = 120;
export const DEFAULT_WINDOW_S = 10;

let histogram: IntervalHistogram | null = null;
let startedAt = 0;

/** The windowed sampler's ring: when each sample was taken and the time since the one before, ms. */
const RING = (MAX_WINDOW_S * 1000) / LOOP_DELAY_RESOLUTION_MS;
const sampleAt = new Float64Array(RING);
const sampleGap = new Float64Array(RING);
let samples = 0;
let lastTick = 0;

/**
 * A timer every LOOP_DELAY_RESOLUTION_MS records the time since its last run, what
 * monitorEventLoopDelay records, in the same units; a held loop shows as one long gap.
 */
function tick(): void {
  const now = performance.now();
  const at = samples % RING;
  sampleAt[at] = now;
  sampleGap[at] = now - lastTick;
  samples++;
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

/** The delay past the sampling interval (the timer's own period), in ms, to 0.01 ms. */
const pastInterval = (gapMs: number): number => Math.max(0, Math.round((gapMs - LOOP_DELAY_RESOLUTION_MS) * 100) / 100);
const ms = (ns: number): number => (Number.isFinite(ns) ? pastInterval(ns / 1e6) : 0);

/** The delay since the monitor started (it starts here if it was not running: then all 0). */
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

/**
 * The delay over the last `windowS` seconds (at most MAX_WINDOW_S; `sinceS` says how long the
 * figures cover: less while the sampler is younger than the window). A gap counts in the window
 * its end falls in.
 */
export function recentEventLoopDelay(windowS = DEFAULT_WINDOW_S): EventLoopDelay {
  watchEventLoop();
  const now = performance.now();
  const from = now - Math.min(MAX_WINDOW_S, Math.max(0, windowS)) * 1000;
  const gaps: number[] = [];
  let first = now;
  for (let k = 1; k <= Math.min(samples, RING); k++) {
    const at = (samples - k) % RING;
    if (sampleAt[at] < from) break;
    gaps.push(pastInterval(sampleGap[at]));
    first = sampleAt[at] - sampleGap[at];
  }
  const sinceS = Math.round((now - Math.max(first, from)) / 100) / 10;
  if (gaps.length === 0) return { p50Ms: 0, p99Ms: 0, maxMs: 0, meanMs: 0, sinceS };
  const sorted = Float64Array.from(gaps).sort();
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  return { p50Ms: q(0.5), p99Ms: q(0.99), maxMs: sorted[sorted.length - 1], meanMs: Math.round(mean * 100) / 100, sinceS };
}
