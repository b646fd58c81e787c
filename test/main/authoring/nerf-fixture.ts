// Writes small NeRF-Synthetic style folders for import tests: a procedural object ray-cast from
// random cameras on a sphere, saved as RGBA PNGs (alpha = exact coverage) with
// transforms_train.json in Blender conventions, in a capture world that is the task world scaled
// by `worldScale` and shifted by `worldShift` (so the importer has something to undo).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getObject } from '../../../src/shared/authoring/objects/index';
import { raycastObject } from '../../../src/shared/authoring/raycast';
import { cameraCentre, orbitCamera } from '../../../src/shared/camera/orbit';
import { Random } from '../../../src/shared/math/random';
import type { Camera } from '../../../src/shared/raster/types';
import { encodePng } from '../../../src/main/io/png';

export interface FixtureOptions {
  object?: string;
  frames?: number;
  size?: number;
  seed?: number;
  fovXDeg?: number;
  worldScale?: number;
  worldShift?: [number, number, number];
}

/** Blender camera-to-world (OpenGL camera axes) of an OpenCV camera, in the shifted capture world. */
export function blenderMatrix(cam: Camera, scale: number, shift: [number, number, number]): number[][] {
  const m = cam.world_to_camera;
  const c = cameraCentre(cam);
  const right = [m[0], m[1], m[2]];
  const down = [m[4], m[5], m[6]];
  const fwd = [m[8], m[9], m[10]];
  const pos = c.map((v, a) => v / scale + shift[a]);
  return [0, 1, 2].map((r) => [right[r], -down[r], -fwd[r], pos[r]]).concat([[0, 0, 0, 1]]);
}

/** Renders the fixture into `dir`; returns the cameras used (task world) for checks. */
export function writeNerfFixture(dir: string, opts: FixtureOptions = {}): Camera[] {
  const obj = getObject(opts.object ?? 'snowman');
  const n = opts.frames ?? 12;
  const size = opts.size ?? 64;
  const fovX = opts.fovXDeg ?? 40;
  const scale = opts.worldScale ?? 1;
  const shift = opts.worldShift ?? [0, 0, 0];
  const rng = new Random(opts.seed ?? 1);
  mkdirSync(join(dir, 'train'), { recursive: true });
  const cams: Camera[] = [];
  const frames = Array.from({ length: n }, (_, i) => {
    const cam = orbitCamera({ azimuth: rng.uniform(0, 360), elevation: rng.uniform(-10, 70), distance: 4.5, fov: fovX, width: size, height: size });
    cams.push(cam);
    const out = raycastObject(obj, cam, { samples: 2 });
    const rgba = new Float32Array(size * size * 4);
    for (let p = 0; p < size * size; p++) {
      const a = out.mask[p];
      for (let k = 0; k < 3; k++) rgba[p * 4 + k] = a > 0 ? Math.min(1, Math.max(0, (out.rgb.data[p * 3 + k] - (1 - a)) / a)) : 0;
      rgba[p * 4 + 3] = a;
    }
    writeFileSync(join(dir, 'train', `r_${i}.png`), encodePng({ width: size, height: size, data: rgba }));
    return { file_path: `./train/r_${i}`, transform_matrix: blenderMatrix(cam, scale, shift) };
  });
  writeFileSync(join(dir, 'transforms_train.json'), JSON.stringify({ camera_angle_x: (fovX * Math.PI) / 180, frames }, null, 1));
  return cams;
}
