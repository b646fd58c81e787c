// The explicit pinhole camera as a zod schema (src/shared/raster/types.ts Camera): the one
// description task files, camera files and LabApi rows share. Invariant: world_to_camera is 16
// finite numbers, row-major, OpenCV axes (x right, y down, z forward).
import { z } from 'zod';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export const CameraSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  fx: finite,
  fy: finite,
  cx: finite,
  cy: finite,
  world_to_camera: z.array(finite).length(16),
});
