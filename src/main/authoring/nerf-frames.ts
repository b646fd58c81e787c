// Reading a NeRF-Synthetic folder: transforms_*.json, then every frame's RGBA PNG composited on
// white and area-resized to the task size, with its alpha as the mask.
// Input: the dataset folder. Output: parsed transforms and per-frame 256x256 photo + mask.
// Invariant: every problem (no transforms file, bad JSON, missing or unreadable frames, frames
// without alpha, non-square frames) is one NerfImportError line naming the file, raised before
// anything is written. The capture's budget (frame count, distinct files, decoded pixels from the
// PNG headers, total bytes) is checked before any frame is decoded (issue 38 item 1: one small
// 2048x2048 PNG named by 200 frames held the lab for minutes).
import { closeSync, existsSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
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

/** Most frames a capture may list (NeRF-Synthetic's train and val sets are 100 each). */
export const MAX_NERF_FRAMES = 400;
/** Most pixels the frames may hold together, read from their PNG headers (200 frames of 800 x 800 and more). */
export const MAX_NERF_PIXELS = 160 * 1024 * 1024;
/** Most bytes the frame files may hold together. */
export const MAX_NERF_BYTES = 512 * 1024 * 1024;

/** Width and height from a PNG's IHDR (the first 24 bytes), without decoding it. */
export function pngHeaderSize(path: string): { width: number; height: number } {
  const head = Buffer.alloc(24);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 24, 0);
  } finally {
    closeSync(fd);
  }
  if (head.readUInt32BE(0) !== 0x89504e47 || head.toString('latin1', 12, 16) !== 'IHDR') throw new NerfImportError(`${basename(path)} is not a PNG file`);
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** Refuses a capture over the budget, in one line, before any frame is decoded. */
export function checkFrameBudget(files: readonly string[]): void {
  if (files.length > MAX_NERF_FRAMES) throw new NerfImportError(`the capture lists ${files.length} frames, over the limit of ${MAX_NERF_FRAMES}: refused before decoding`);
  const seen = new Map<string, number>();
  let pixels = 0;
  let bytes = 0;
  files.forEach((file, i) => {
    const real = realpathSync(file);
    const first = seen.get(real);
    if (first !== undefined) throw new NerfImportError(`frames ${first} and ${i} name the same image file (${basename(file)}): every frame must be its own photo`);
    seen.set(real, i);
    bytes += statSync(real).size;
    const { width, height } = pngHeaderSize(real);
    pixels += width * height;
  });
  if (bytes > MAX_NERF_BYTES) throw new NerfImportError(`the frames hold ${bytes} bytes, over the limit of ${MAX_NERF_BYTES}: refused before decoding`);
  if (pixels > MAX_NERF_PIXELS) throw new NerfImportError(`the frames hold ${pixels} pixels, over the limit of ${MAX_NERF_PIXELS}: refused before decoding`);
}

/** Reads every frame of the capture; all frame files and the budget are checked before any is decoded. */
export function readFrames(dir: string, transforms: NerfTransforms, size: number): NerfFrame[] {
  if (transforms.frames.length > MAX_NERF_FRAMES) throw new NerfImportError(`the capture lists ${transforms.frames.length} frames, over the limit of ${MAX_NERF_FRAMES}: refused before decoding`);
  const files = transforms.frames.map((f) => framePath(dir, f.file_path));
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length) {
    const shown = missing.slice(0, 3).map((f) => basename(f)).join(', ');
    throw new NerfImportError(`missing ${missing.length} of ${files.length} frame images in ${dir} (${shown}${missing.length > 3 ? ', ...' : ''})`);
  }
  checkFrameBudget(files);
  return transforms.frames.map((f, index) => ({ index, file: files[index], c2w: f.transform_matrix, ...loadFrame(files[index], size) }));
}
