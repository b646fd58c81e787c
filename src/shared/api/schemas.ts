// Domain payloads of LabApi that are not owned by a more specific module.
// Invariant: nothing here carries held-out views, anchors or hidden scores.
import { z } from 'zod';

export const GpuPath = z.enum(['hardware', 'swiftshader', 'cpu']);
export type GpuPath = z.infer<typeof GpuPath>;

export const GpuStatus = z.strictObject({
  path: GpuPath,
  vendor: z.string(),
  architecture: z.string(),
  description: z.string(),
  /** One human line: which path is live and how to get a faster one. */
  summary: z.string(),
});
export type GpuStatus = z.infer<typeof GpuStatus>;

/** How long the lab process's event loop was held (monitorEventLoopDelay), since `sinceS` seconds. */
export const EventLoopDelay = z.strictObject({
  p50Ms: z.number().nonnegative(),
  p99Ms: z.number().nonnegative(),
  maxMs: z.number().nonnegative(),
  meanMs: z.number().nonnegative(),
  sinceS: z.number().nonnegative(),
});
export type EventLoopDelay = z.infer<typeof EventLoopDelay>;

export const AppInfo = z.strictObject({
  name: z.literal('SplatLab'),
  version: z.string(),
  transport: z.enum(['ipc', 'ws', 'direct']),
  gpu: GpuStatus,
  tasksDir: z.string(),
  /** Event-loop delay of the lab process since it started (issue 29 item 1), start-up included. */
  eventLoop: EventLoopDelay,
  /** The same over the last `loopWindowS` seconds (default 10): the load now, without start-up. */
  eventLoopRecent: EventLoopDelay,
  /** Where the hidden grade runs (CPU on the worker pool, GPU in a child process, ...), one line. */
  grading: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const AppInfoParams = z.strictObject({
  /** Seconds of the windowed event-loop figure (over 0, at most 120; default 10). */
  loopWindowS: z.number().positive().max(120).optional(),
});

// Shared with the kinds' rows (../kinds/schemas.ts).
export { Empty } from '../kinds/schemas';
