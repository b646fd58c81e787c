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

export const AppInfo = z.strictObject({
  name: z.literal('SplatLab'),
  version: z.string(),
  transport: z.enum(['ipc', 'ws', 'direct']),
  gpu: GpuStatus,
  tasksDir: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const Empty = z.strictObject({});
