// The up axis of a capture from the cameras stored beside it: a 3DGS training output's
// cameras.json (camera-to-world rotations, OpenCV axes: image up is the camera's -Y) or a
// NeRF-style transforms*.json (camera-to-world matrices, OpenGL axes: image up is +Y). The mean
// camera up is snapped to the nearest signed axis and the angle off it reported.
// Inputs: the splat file's path (its folder and the folder above are searched). Output: the
// detected up or null. Invariant: a malformed camera file is skipped with a note, never fatal.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { Axis } from '../../shared/formats/types';

export interface DetectedUp {
  up: Axis;
  file: string;
  cameras: number;
  /** Angle between the mean camera up and the snapped axis, degrees. */
  offAxisDeg: number;
}

const Row3 = z.tuple([z.number(), z.number(), z.number()]);
const CamerasJson = z.array(z.object({ rotation: z.tuple([Row3, Row3, Row3]) }).loose()).min(1);
const TransformsJson = z.object({ frames: z.array(z.object({ transform_matrix: z.array(z.array(z.number()).min(3)).min(3) }).loose()).min(1) }).loose();

/** Snaps a mean up vector to the nearest signed axis. */
export function snapUp(v: readonly number[]): { up: Axis; offAxisDeg: number } | null {
  const len = Math.hypot(v[0], v[1], v[2]);
  if (!(len > 1e-9)) return null;
  let best = 0;
  for (let a = 1; a < 3; a++) if (Math.abs(v[a]) > Math.abs(v[best])) best = a;
  const up = `${v[best] < 0 ? '-' : '+'}${'xyz'[best]}` as Axis;
  return { up, offAxisDeg: (Math.acos(Math.min(1, Math.abs(v[best]) / len)) * 180) / Math.PI };
}

function meanUp(file: string): { sum: number[]; count: number } | null {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  const sum = [0, 0, 0];
  const cams = CamerasJson.safeParse(json);
  if (cams.success) {
    // OpenCV camera: its up in the world is minus the second column of camera-to-world.
    for (const c of cams.data) for (let a = 0; a < 3; a++) sum[a] -= c.rotation[a][1];
    return { sum, count: cams.data.length };
  }
  const tr = TransformsJson.safeParse(json);
  if (tr.success) {
    for (const f of tr.data.frames) for (let a = 0; a < 3; a++) sum[a] += f.transform_matrix[a][1];
    return { sum, count: tr.data.frames.length };
  }
  return null;
}

/** Looks for camera files beside the capture (or beside its folder) and votes on up. */
export function detectUpFromCameras(path: string): DetectedUp | null {
  const start = existsSync(path) && statSync(path).isDirectory() ? path : dirname(path);
  for (const dir of [start, dirname(start)]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => n === 'cameras.json' || /^transforms.*\.json$/.test(n)).sort()) {
      const m = meanUp(join(dir, name));
      if (!m) continue;
      const snapped = snapUp(m.sum);
      if (snapped) return { ...snapped, file: join(dir, name), cameras: m.count };
    }
  }
  return null;
}
