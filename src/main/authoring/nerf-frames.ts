// Reading a NeRF-Synthetic folder: transforms_*.json, then every frame's RGBA PNG composited on
// white and area-resized to the task size, with its alpha as the mask.
// Input: the dataset folder. Output: parsed transforms and per-frame 256x256 photo + mask.
// Invariant: every problem (no transforms file, bad JSON, missing or unreadable frames, frames
// without alpha, non-square frames) is one NerfImportError line naming the file, raised before
// anything is written.
import { existsSync, readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { NerfTransformsSchema, type NerfTransforms } from '../../shared/authoring/import/nerf';
import { resizeArea } from '../../shared/authoring/import/resize';
import type { RgbImage } from '../../shared/image/image';
import { confinedPath } from '../io/confine';
import { readJsonChecked } from '../io/json-file';
import { readPng } from '../io/png';

export class NerfImportError extends Error {
  override name = 'NerfImportError';
}

export interface NerfFrame {
  index: number; // position in transforms.frames
  file: string; // absolute path of the PNG
  c2w: number[][]; // 4x4 camera-to-world (Blender/OpenGL camera axes)
  photo: RgbImage; // [size, size, 3] on white
  mask: Float32Array; // [size, size] alpha
}

/** transforms_train.json when present, else the first transforms_*.json by name. */
export function findTransforms(dir: string): string {
  if (!existsSync(dir)) throw new NerfImportError(`no such folder ${dir}`);
  const train = join(dir, 'transforms_train.json');
  if (existsSync(train)) return train;
  const any = readdirSync(dir).filter((f) => /^transforms_.*\.json$/.test(f)).sort();
  if (any.length === 0) throw new NerfImportError(`${dir} has no transforms_*.json (not a NeRF-Synthetic folder)`);
  return join(dir, any[0]);
}

export function readTransforms(path: string): NerfTransforms {
  return readJsonChecked(path, NerfTransformsSchema, { error: NerfImportError });
}

/** Absolute image path of a frame's file_path (".png" added when it has no extension). */
export function framePath(dir: string, filePath: string): string {
  // file_path comes from the capture's transforms file (an upload's, in the lab): confined to it,
  // with ".png" added first, so the file checked is the file read (a symlink "r_0.png" beside a
  // file_path "r_0" escaped the check made before the extension; issue 38).
  const given = extname(filePath) === '' ? `${filePath}.png` : filePath;
  return confinedPath(dir, given, 'frame file_path', 'the capture folder');
}

/** Decodes one frame: RGBA required, square required, composited on white and resized. */
export function loadFrame(path: string, size: number): { photo: RgbImage; mask: Float32Array } {
  let png;
  try {
    png = readPng(path);
  } catch (err) {
    throw new NerfImportError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (png.channels !== 2 && png.channels !== 4) {
    throw new NerfImportError(`${path} has no alpha channel (NeRF-Synthetic frames are RGBA; the alpha is the object mask)`);
  }
  const { width: w, height: h, channels: c } = png;
  if (w !== h) throw new NerfImportError(`${path} is ${w}x${h}; frames must be square`);
  // Composite on white at full resolution (linear, so it commutes with the area filter).
  const rgba = new Float32Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const a = png.data[i * c + c - 1];
    for (let k = 0; k < 3; k++) {
      const v = c === 2 ? png.data[i * c] : png.data[i * c + k];
      rgba[i * 4 + k] = v * a + (1 - a);
    }
    rgba[i * 4 + 3] = a;
  }
  const small = resizeArea(rgba, w, h, 4, size, size);
  const photo = new Float32Array(size * size * 3);
  const mask = new Float32Array(size * size);
  for (let i = 0; i < size * size; i++) {
    photo.set(small.subarray(i * 4, i * 4 + 3), i * 3);
    mask[i] = small[i * 4 + 3];
  }
  return { photo: { width: size, height: size, data: photo }, mask };
}

/** Reads every frame of the capture; all frame files are checked before any is decoded. */
export function readFrames(dir: string, transforms: NerfTransforms, size: number): NerfFrame[] {
  const files = transforms.frames.map((f) => framePath(dir, f.file_path));
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length) {
    const shown = missing.slice(0, 3).map((f) => basename(f)).join(', ');
    throw new NerfImportError(`missing ${missing.length} of ${files.length} frame images in ${dir} (${shown}${missing.length > 3 ? ', ...' : ''})`);
  }
  return transforms.frames.map((f, index) => ({ index, file: files[index], c2w: f.transform_matrix, ...loadFrame(files[index], size) }));
}
