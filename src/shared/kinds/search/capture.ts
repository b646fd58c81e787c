// The room document of a captured room (docs/DESIGN.md section 9): where the capture file lies,
// how to place it (up axis, yaw, recentre, metres per file unit), an optional collision mesh
// (.obj) and the voxel grid settings used when there is none.
// Input: JSON (tasks/search/captures/<name>.json). Output: CaptureRoom.
// Invariant: a document names files, it never holds them: the capture stays where it is (inside
// the tasks folder, or an absolute path under the configured captures folder), so third-party
// captures are never copied into the repository.
import { z } from 'zod';

const filePath = z.string().min(1).max(1000).refine((p) => !p.split(/[\\/]/).includes('..'), 'paths may not climb with ..');

export const CaptureRoomSchema = z.strictObject({
  type: z.literal('capture'),
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'names use lower-case letters, digits, _ and -'),
  /** Splat file (any format the lab reads): relative to the tasks folder, or absolute under the captures folder. */
  capture: filePath,
  placement: z.strictObject({
    up: z.enum(['auto', '+x', '-x', '+y', '-y', '+z', '-z']).default('auto'),
    yaw_deg: z.number().min(-360).max(360).default(0),
    recentre: z.enum(['bbox', 'median', 'none']).default('none'),
    /** Metres per file unit (1 for a metric capture). */
    metres_per_unit: z.number().positive().default(1),
  }).default({ up: 'auto', yaw_deg: 0, recentre: 'none', metres_per_unit: 1 }),
  /** Collision mesh (.obj) in the placed frame, same path rules as the capture. */
  mesh: filePath.regex(/\.obj$/i, 'the mesh is a .obj file').optional(),
  voxels: z.strictObject({
    size: z.number().min(0.01).max(0.5).default(0.05),
    min_opacity: z.number().min(0).max(1).default(0.1),
    sigmas: z.number().positive().max(5).default(3),
  }).default({ size: 0.05, min_opacity: 0.1, sigmas: 3 }),
  /** Camera sphere radius in metres for tasks in this room. */
  radius: z.number().positive().max(1).default(0.1),
});
export type CaptureRoom = z.infer<typeof CaptureRoomSchema>;

/** True when a parsed room document is a captured room (procedural RoomSpecs have no `type`). */
export function isCaptureDoc(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'capture';
}
