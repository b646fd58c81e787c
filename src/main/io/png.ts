// PNG entry point: codec re-exports, conversion to the lab's RgbImage/RgbaImage, file helpers.
// Input: PNG bytes or paths. Output: [H, W, 3|4] float images in [0, 1] (sRGB values as numbers).
// Invariant: transparent pixels become RGB by compositing over white, the lab's background.
import { readFileSync, writeFileSync } from 'node:fs';
import type { RgbImage, RgbaImage } from '../../shared/image/image';
import { decodePng, type DecodedPng } from './png-decode';
import { encodePng, type EncodableImage } from './png-encode';

export { PngError, crc32 } from './png-chunks';
export { decodePng, type DecodedPng } from './png-decode';
export { encodePng, type EncodableImage, type Uint8Pixels, type FloatPixels } from './png-encode';

/** Expands any decoded PNG to RGBA (grey replicated, missing alpha = 1). */
export function toRgba(png: DecodedPng): RgbaImage {
  const n = png.width * png.height;
  const out = new Float32Array(n * 4);
  const c = png.channels;
  for (let i = 0; i < n; i++) {
    const s = i * c;
    const grey = c <= 2;
    out[i * 4] = png.data[s];
    out[i * 4 + 1] = grey ? png.data[s] : png.data[s + 1];
    out[i * 4 + 2] = grey ? png.data[s] : png.data[s + 2];
    out[i * 4 + 3] = c === 2 ? png.data[s + 1] : c === 4 ? png.data[s + 3] : 1;
  }
  return { width: png.width, height: png.height, data: out };
}

/**
 * Converts any decoded PNG to RGB, compositing transparency over `background` (white). One pass
 * over the decoded samples (no RGBA copy): the same float32 values as compositing toRgba's.
 */
export function toRgb(png: DecodedPng, background = 1): RgbImage {
  const n = png.width * png.height;
  const out = new Float32Array(n * 3);
  const src = png.data;
  const c = png.channels;
  if (c === 3) {
    // Opaque: v * 1 + background * 0 is v.
    out.set(src.subarray(0, n * 3));
  } else {
    for (let i = 0; i < n; i++) {
      const s = i * c;
      const a = c === 2 || c === 4 ? src[s + c - 1] : 1;
      const r = src[s];
      const g = c <= 2 ? r : src[s + 1];
      const b = c <= 2 ? r : src[s + 2];
      out[i * 3] = r * a + background * (1 - a);
      out[i * 3 + 1] = g * a + background * (1 - a);
      out[i * 3 + 2] = b * a + background * (1 - a);
    }
  }
  return { width: png.width, height: png.height, data: out };
}

/** Reads and decodes a PNG file; PngError messages are prefixed with the path. */
export function readPng(path: string): DecodedPng {
  try {
    return decodePng(readFileSync(path));
  } catch (err) {
    if (err instanceof Error && err.name === 'PngError') err.message = `${path}: ${err.message}`;
    throw err;
  }
}

/** Reads a PNG file as RGB over white. */
export function readPngRgb(path: string): RgbImage {
  return toRgb(readPng(path));
}

/** Encodes and writes an 8-bit PNG file. */
export function writePng(path: string, img: EncodableImage): void {
  writeFileSync(path, encodePng(img));
}
