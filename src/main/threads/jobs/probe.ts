// Probe jobs of the worker pool: they do nothing useful, so the pool's own behaviour (fairness,
// cancellation, a crash contained, progress) can be tested and benchmarked on its real workers.
// Input: small JSON objects. Output: what each says. Invariant: `spin` burns CPU for `ms` in
// slices and reports progress after each slice, like a long render does; `share` is a split job's
// part as the tile rasterizer's are (items from a shared counter until none is left or cancelled).
import { getPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import type { JobContext } from '../../workers/protocol';

export function echo(input: { value: unknown; tag?: string }): { value: unknown; tag: string | null } {
  return { value: input.value, tag: input.tag ?? null };
}

/** Busy for `ms` milliseconds of wall time (never yields, as a rasterizer does not). */
export function spin(input: { ms: number; slices?: number }, ctx: JobContext): { slices: number } {
  const slices = Math.max(1, input.slices ?? 1);
  for (let s = 0; s < slices; s++) {
    const until = Date.now() + input.ms / slices;
    while (Date.now() < until) {
      // burning CPU on purpose
    }
    ctx.progress(s + 1, slices);
  }
  return { slices };
}

export function fail(input: { message: string }): never {
  throw new Error(input.message);
}

/** Ends the worker thread itself (a native crash or an out-of-memory kill looks the same). */
export function crash(input: { code: number }): never {
  process.exit(input.code);
}

export function readResident(input: { key: string }, ctx: JobContext): unknown {
  return ctx.resident(input.key);
}

/**
 * A part of a split job: takes items from ctl[0] (each `ms` of busy time, its taker's thread id
 * written to owners[item]) until none of `total` is left or ctl[1] (cancel) is set.
 */
export function share(input: { ctl: Int32Array; owners: Int32Array; total: number; ms: number }): { thread: number; items: number } {
  let items = 0;
  for (;;) {
    if (Atomics.load(input.ctl, 1) !== 0) break;
    const item = Atomics.add(input.ctl, 0, 1);
    if (item >= input.total) break;
    const until = Date.now() + input.ms;
    while (Date.now() < until) {
      // burning CPU on purpose
    }
    input.owners[item] = threadId;
    items++;
  }
  return { thread: threadId, items };
}

/** Grows the JS heap by `mb` MiB of small objects (a thread run with resource limits ends on it). */
export function hog(input: { mb: number }): { held: number; thread: number } {
  const held: { v: number; s: string }[][] = [];
  for (let m = 0; m < input.mb; m++) held.push(Array.from({ length: 16 * 1024 }, (_, i) => ({ v: i, s: `x${i}` })));
  return { held: held.length, thread: threadId };
}

export function thread(_input: Record<string, never>): { thread: number } {
  return { thread: threadId };
}

/** The thread's own niceness (Linux: per thread), as the serving pools set it (workers/nice.ts). */
export function priority(_input: Record<string, never>): { nice: number } {
  return { nice: getPriority(0) };
}
