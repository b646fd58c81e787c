// Camera files for the debugging CLI and the debugger: an explicit OpenCV camera
// {width, height, fx, fy, cx, cy, world_to_camera[16]} or an orbit spec {azimuth, elevation,
// distance?, fov?, width?, height?}. Output: an explicit Camera. Invariant: the rotation part of
// an explicit world_to_camera is orthonormal (a rigid transform), else it is rejected.
import { z } from 'zod';
import { CameraSchema } from './schema';
import { orbitCamera } from './orbit';
import type { Camera } from '../raster/types';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export const OrbitSpecSchema = z.strictObject({
  azimuth: finite,
  elevation: finite.refine((e) => e >= -90 && e <= 90, 'elevation must be within [-90, 90] degrees'),
  distance: finite.refine((d) => d > 0, 'distance must be positive').optional(),
  fov: finite.refine((f) => f > 0 && f < 180, 'fov must be within (0, 180) degrees').optional(),
  width: z.number().int().positive().max(8192).optional(),
  height: z.number().int().positive().max(8192).optional(),
});

export const CameraFileSchema = z.union([CameraSchema, OrbitSpecSchema]);

export function cameraFromFile(json: unknown): { ok: true; camera: Camera } | { ok: false; error: string } {
  const parsed = CameraFileSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, error: 'a camera file is an explicit camera {width, height, fx, fy, cx, cy, world_to_camera[16]} or an orbit {azimuth, elevation, distance?, fov?, width?, height?}' };
  }
  const camera = 'world_to_camera' in parsed.data ? parsed.data : orbitCamera(parsed.data);
  const m = camera.world_to_camera;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = m[i * 4] * m[j * 4] + m[i * 4 + 1] * m[j * 4 + 1] + m[i * 4 + 2] * m[j * 4 + 2];
      if (Math.abs(d - (i === j ? 1 : 0)) > 1e-4) return { ok: false, error: 'world_to_camera is not a rigid transform (its 3x3 rotation is not orthonormal)' };
    }
  }
  return { ok: true, camera };
}

/** Camera-space depth of a world point (OpenCV: +Z forward). */
export function cameraDepth(camera: Camera, p: readonly number[]): number {
  const m = camera.world_to_camera;
  return m[8] * p[0] + m[9] * p[1] + m[10] * p[2] + m[11];
}
