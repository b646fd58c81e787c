// A serving pool's worker thread lowers its own CPU priority (issue 38 item 1): on a loaded
// machine the lab's event loop (which only dispatches) then wins the CPU from decodes, fits and
// grades, so another client's reply waits less (docs/PERFORMANCE.md "Serving threads at nice 10").
// Only on Linux, where nice is per thread (setpriority(PRIO_PROCESS, 0) names the calling
// thread); elsewhere the same call would lower the whole process, the event loop included.
// Input: the niceness to reach. Output: none. Invariant: never raises a priority, never throws
// (servingNice throws on a malformed SPLATLAB_SERVING_NICE, at the lab's start).
import { getPriority, setPriority } from 'node:os';

/** The niceness of the lab's serving pools (the WorkerPool of a LabContext, the grader's LPIPS pool). */
export const SERVING_NICE = 10;

/**
 * The serving pools' niceness: SERVING_NICE, or SPLATLAB_SERVING_NICE (an integer 0-19; 0 leaves
 * the threads at the process's priority, as the mixed-load bench's "without" run does).
 */
export function servingNice(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SPLATLAB_SERVING_NICE;
  if (raw === undefined || raw === '') return SERVING_NICE;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 19) throw new Error(`SPLATLAB_SERVING_NICE must be an integer from 0 to 19, got '${raw}'`);
  return n;
}

export function lowerThisThread(nice: number | undefined): void {
  if (nice === undefined || process.platform !== 'linux') return;
  try {
    if (getPriority(0) < nice) setPriority(0, nice);
  } catch {
    // A sandbox that refuses setpriority: the thread keeps the process's priority, which is only slower to yield.
  }
}
