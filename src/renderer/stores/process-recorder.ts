// The page side of the process log (src/shared/env/process-log.ts): components report what the
// person did; events queue here with the page's anchored monotonic time and leave with the next
// heartbeat (heartbeat.ts). Camera poses are thinned to CAMERA_HZ. Invariant: at most 512 events
// wait at once (a long disconnect drops the oldest, and says so with a `truncated` event).
import { CAMERA_HZ, type ProcessEvent, type ProcessEventKind } from '../../shared/env/process-log';
import { pageNow } from '../study/paint-clock';

const MAX_QUEUED = 512;
let queue: ProcessEvent[] = [];
let lastCamera = -Infinity;
let active = false;

/** Starts (or stops) recording for the live episode; stopping drops what was not sent. */
export function recordProcess(on: boolean): void {
  active = on;
  if (!on) queue = [];
}

export function processEvent(e: ProcessEventKind, d?: ProcessEvent['d']): void {
  if (!active) return;
  const t = pageNow();
  if (e === 'camera') {
    if (t - lastCamera < 1000 / CAMERA_HZ) return;
    lastCamera = t;
  }
  queue.push({ t, e, ...(d ? { d } : {}) });
  if (queue.length > MAX_QUEUED) queue = [{ t, e: 'truncated', d: { dropped: queue.length - MAX_QUEUED + 1 } }, ...queue.slice(-(MAX_QUEUED - 1))];
}

/** The queued events (emptied); `putBack` returns them after a failed send. */
export function takeProcessEvents(): ProcessEvent[] {
  return queue.splice(0);
}

export function putBackProcessEvents(events: ProcessEvent[]): void {
  if (active) queue = [...events, ...queue].slice(-MAX_QUEUED);
}
