// Reading a photographed capture folder (docs/TASKS.md "Photographed objects"): which layout it is
// (a COLMAP sparse model, LLFF poses_bounds.npy, MVSNet cams/), its cameras, its photos and
// their masks (a masks folder matched by name, else the photos' alpha), and decoding one view
// (PNG or JPEG, undistorted at full size).
// Input: the capture folder. Output: CaptureCameras with the files that go with them.
// Invariant: every problem (no layout, unknown camera model, photo or mask missing, unreadable
// file, sizes that disagree) is one CaptureError line naming the file, raised by readCapture
// before anything is decoded or written.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { CaptureError, undistortImage, type CaptureCamera } from '../../shared/authoring/import/capture';
import { parseColmapBinary, parseColmapText } from '../../shared/authoring/import/colmap';
import { llffCameras, parseMvsnetCam } from '../../shared/authoring/import/llff-mvsnet';
import type { RgbImage } from '../../shared/image/image';
import { confinedPath } from '../io/confine';
import { decodeJpegRgb } from '../io/jpeg';
import { decodeNpy, NpzError } from '../io/npz';
import { decodePng } from '../io/png';

export { CaptureError } from '../../shared/authoring/import/capture';

export type CaptureLayout = 'colmap-text' | 'colmap-binary' | 'llff' | 'mvsnet';
const IMAGE_EXT = ['.png', '.jpg', '.jpeg'];
/** Largest photo accepted (a 64-megapixel camera). */
const MAX_PHOTO_PIXELS = 64e6;

export interface CaptureView {
  camera: CaptureCamera;
  photo: string; // absolute path
  mask: string | null; // absolute path, or null: the photo's alpha is the mask
}

export interface Capture {
  dir: string;
  layout: CaptureLayout;
  cameraFiles: string[]; // the files the cameras came from (absolute)
  views: CaptureView[];
}

const isImage = (f: string): boolean => IMAGE_EXT.includes(extname(f).toLowerCase());

function firstDir(dir: string, names: readonly string[]): string | null {
  for (const n of names) {
    const p = join(dir, n);
    if (existsSync(p) && statSync(p).isDirectory()) return p;
  }
  return null;
}

function read(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new CaptureError(`cannot read ${path}: ${(err as Error).message}`);
  }
}

/** The COLMAP model folder: sparse/0, sparse, colmap/sparse/0 or the capture folder itself. */
function colmapModel(dir: string): { folder: string; binary: boolean } | null {
  for (const sub of ['sparse/0', 'sparse', 'colmap/sparse/0', '.']) {
    const f = join(dir, sub);
    if (existsSync(join(f, 'cameras.txt')) && existsSync(join(f, 'images.txt'))) return { folder: f, binary: false };
    if (existsSync(join(f, 'cameras.bin')) && existsSync(join(f, 'images.bin'))) return { folder: f, binary: true };
  }
  return null;
}

/** Which layout `dir` holds, by what is in it. */
export function detectLayout(dir: string): CaptureLayout {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CaptureError(`no such folder ${dir}`);
  const colmap = colmapModel(dir);
  if (colmap) return colmap.binary ? 'colmap-binary' : 'colmap-text';
  if (existsSync(join(dir, 'poses_bounds.npy'))) return 'llff';
  if (existsSync(join(dir, 'cams'))) return 'mvsnet';
  throw new CaptureError(`${dir} holds no capture layout the lab reads (a COLMAP sparse model: sparse/0/cameras.txt|bin + images.txt|bin; LLFF: poses_bounds.npy; MVSNet: cams/*_cam.txt)`);
}

/** The size of an image file from its header (PNG IHDR, JPEG SOF), without decoding it. */
export function imageSize(path: string): { width: number; height: number } {
  const b = read(path);
  if (b[0] === 0x89 && b[1] === 0x50 && b.length >= 24) {
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    return { width: v.getUint32(16), height: v.getUint32(20) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) { i++; continue; }
      const marker = b[i + 1];
      const len = (b[i + 2] << 8) | b[i + 3];
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: (b[i + 5] << 8) | b[i + 6], width: (b[i + 7] << 8) | b[i + 8] };
      }
      i += 2 + len;
    }
  }
  throw new CaptureError(`${path} is not a PNG or JPEG file`);
}

function cameras(dir: string, layout: CaptureLayout, photos: string): { cams: CaptureCamera[]; files: string[] } {
  if (layout === 'colmap-text' || layout === 'colmap-binary') {
    const m = colmapModel(dir) as { folder: string; binary: boolean };
    const ext = m.binary ? 'bin' : 'txt';
    const files = [join(m.folder, `cameras.${ext}`), join(m.folder, `images.${ext}`)];
    const [c, i] = files.map(read);
    const rel = files.map((f) => relative(dir, f));
    const cams = m.binary
      ? parseColmapBinary(c, i, rel[0], rel[1])
      : parseColmapText(new TextDecoder().decode(c), new TextDecoder().decode(i), rel[0], rel[1]);
    return { cams, files };
  }
  if (layout === 'llff') {
    const file = join(dir, 'poses_bounds.npy');
    let rows;
    try {
      rows = decodeNpy(read(file), 'poses_bounds.npy');
    } catch (err) {
      throw new CaptureError(`poses_bounds.npy: ${err instanceof NpzError ? err.message : (err as Error).message}`);
    }
    if (rows.dtype !== 'f8' && rows.dtype !== 'f4') throw new CaptureError(`poses_bounds.npy holds ${rows.dtype} numbers, not floats`);
    const names = readdirSync(photos).filter(isImage).sort();
    return { cams: llffCameras(rows.data, names.map((name) => ({ name, ...imageSize(join(photos, name)) }))), files: [file] };
  }
  const camDir = join(dir, 'cams');
  const camFiles = readdirSync(camDir).filter((f) => f.endsWith('_cam.txt')).sort();
  if (camFiles.length === 0) throw new CaptureError(`${camDir} holds no *_cam.txt files`);
  const photoNames = readdirSync(photos).filter(isImage);
  const cams = camFiles.map((f) => {
    const stem = f.slice(0, -'_cam.txt'.length);
    const name = photoNames.find((p) => p.slice(0, -extname(p).length) === stem);
    if (!name) throw new CaptureError(`cams/${f} has no photo ${stem}.jpg|.png in ${relative(dir, photos) || '.'}`);
    return parseMvsnetCam(new TextDecoder().decode(read(join(camDir, f))), name, imageSize(join(photos, name)), `cams/${f}`);
  });
  return { cams, files: camFiles.map((f) => join(camDir, f)) };
}

/** Mask file of a photo: same relative path, same stem with an image extension, or the name plus .png (COLMAP's). */
function findMask(masks: string, photoName: string): string | null {
  const stem = photoName.slice(0, photoName.length - extname(photoName).length);
  for (const cand of [photoName, `${photoName}.png`, ...IMAGE_EXT.map((e) => `${stem}${e}`), ...IMAGE_EXT.map((e) => `${stem}${e.toUpperCase()}`)]) {
    const p = join(masks, cand);
    if (existsSync(p)) return p;
  }
  return null;
}

/** Reads the layout, cameras and file list of a capture; checks every photo and mask exists. */
export function readCapture(dir: string): Capture {
  const layout = detectLayout(dir);
  const photos = firstDir(dir, layout === 'mvsnet' ? ['blended_images', 'images'] : ['images']);
  if (!photos) throw new CaptureError(`${dir} has no images/ folder${layout === 'mvsnet' ? ' (or blended_images/)' : ''}`);
  const { cams, files } = cameras(dir, layout, photos);
  const masks = firstDir(dir, ['masks', 'mask']);
  const missing: string[] = [];
  const noMask: string[] = [];
  const views = cams.map((camera): CaptureView => {
    const photo = confinedPath(photos, camera.name, 'photo name', 'the images folder');
    if (!existsSync(photo)) missing.push(camera.name);
    const mask = masks ? findMask(masks, camera.name) : null;
    if (masks && !mask) noMask.push(camera.name);
    return { camera, photo, mask };
  });
  const list = (names: string[]): string => `${names.slice(0, 3).join(', ')}${names.length > 3 ? ', ...' : ''}`;
  if (missing.length) throw new CaptureError(`missing ${missing.length} of ${cams.length} photos in ${photos} (${list(missing)})`);
  if (noMask.length) throw new CaptureError(`no mask for ${noMask.length} of ${cams.length} photos in ${masks} (${list(noMask)}; a mask has the photo's name, any of .png .jpg .jpeg)`);
  for (const v of views) {
    const size = imageSize(v.photo);
    if (size.width !== v.camera.width || size.height !== v.camera.height) {
      throw new CaptureError(`${basename(v.photo)} is ${size.width}x${size.height} but its camera says ${v.camera.width}x${v.camera.height}`);
    }
    if (v.mask) {
      const m = imageSize(v.mask);
      if (m.width !== size.width || m.height !== size.height) throw new CaptureError(`mask ${basename(v.mask)} is ${m.width}x${m.height} but its photo is ${size.width}x${size.height}`);
    }
  }
  if (!masks && views.some((v) => extname(v.photo).toLowerCase() !== '.png')) {
    throw new CaptureError(`${dir} has no masks/ folder and its photos are JPEGs (masks come from a masks/ folder or from RGBA PNG photos)`);
  }
  return { dir, layout, cameraFiles: files, views };
}

function decodeAny(path: string): { width: number; height: number; channels: number; data: Float32Array } {
  const bytes = read(path);
  try {
    if (bytes[0] === 0x89) return decodePng(bytes, { maxPixels: MAX_PHOTO_PIXELS });
    const rgb = decodeJpegRgb(bytes, MAX_PHOTO_PIXELS);
    return { ...rgb, channels: 3 };
  } catch (err) {
    throw new CaptureError(`cannot read ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** A view's photo (RGB, full size) and mask, both undistorted onto the pinhole camera. */
export function loadView(v: CaptureView, what: 'photo+mask' | 'mask'): { photo: RgbImage | null; mask: Float32Array } {
  const { width: w, height: h } = v.camera;
  const needPhoto = what === 'photo+mask' || v.mask === null;
  const img = needPhoto ? decodeAny(v.photo) : null;
  let mask: Float32Array;
  if (v.mask) {
    const m = decodeAny(v.mask);
    const alpha = (m.channels === 2 || m.channels === 4) && m.data.some((_, i) => i % m.channels === m.channels - 1 && m.data[i] < 1);
    mask = new Float32Array(w * h);
    for (let i = 0; i < w * h; i++) {
      // A binary mask's grey value, or an RGBA mask's alpha; JPEG noise near 0 and 1 is snapped.
      const raw = alpha ? m.data[i * m.channels + m.channels - 1] : m.data[i * m.channels];
      mask[i] = raw < 0.04 ? 0 : raw > 0.96 ? 1 : raw;
    }
  } else {
    const c = (img as { channels: number }).channels;
    if (c !== 2 && c !== 4) throw new CaptureError(`${v.photo} has no alpha channel and the capture has no masks/ folder`);
    mask = new Float32Array(w * h);
    for (let i = 0; i < w * h; i++) mask[i] = (img as { data: Float32Array }).data[i * c + c - 1];
  }
  mask = undistortImage(mask, 1, v.camera);
  if (what === 'mask' || !img) return { photo: null, mask };
  const rgb = new Float32Array(w * h * 3);
  const c = img.channels;
  for (let i = 0; i < w * h; i++) for (let k = 0; k < 3; k++) rgb[i * 3 + k] = img.data[i * c + (c >= 3 ? k : 0)];
  return { photo: { width: w, height: h, data: undistortImage(rgb, 3, v.camera) }, mask };
}
