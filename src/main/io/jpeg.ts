// JPEG through jpeg-js (a well-kept pure-JS baseline codec): the lab's float RGB image to the
// bytes of a baseline JFIF file at a stated quality, and a JPEG file's bytes back: 8-bit RGB
// pixels (decodeJpeg), or float RGB for the photos of a photographed capture (decodeJpegRgb).
// Input: RgbImage in [0, 1], quality 1-100; or JPEG bytes. Output: JPEG bytes; or pixels.
// Invariant: values are clamped and rounded to 8 bits before encoding, the same quantisation as
// the lab's PNGs, so a JPEG differs from its PNG only by compression; a decoded image keeps the
// file's own size.
import jpeg from 'jpeg-js';
import type { RgbImage } from '../../shared/image/image';
import type { Uint8Pixels } from './png-encode';

/** The pixels of a JPEG file at its own size (RGB, 8 bits); `where` names it in an error. */
export function decodeJpeg(bytes: Uint8Array, where: string): Uint8Pixels {
  try {
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false, maxResolutionInMP: 64 });
    return { width: img.width, height: img.height, channels: 3, data: new Uint8Array(img.data) };
  } catch (error) {
    throw new Error(`${where}: not a readable JPEG (${(error as Error).message})`);
  }
}

export function encodeJpeg(img: RgbImage, quality: number): Uint8Array {
  if (!Number.isInteger(quality) || quality < 1 || quality > 100) throw new Error(`JPEG quality must be a whole number 1-100 (got ${quality})`);
  const n = img.width * img.height;
  const rgba = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) rgba[i * 4 + k] = Math.round(Math.min(1, Math.max(0, img.data[i * 3 + k])) * 255);
    rgba[i * 4 + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ width: img.width, height: img.height, data: rgba }, quality).data);
}

/** Decodes a JPEG to RGB floats in [0, 1]; `maxPixels` bounds what a file may claim. */
export function decodeJpegRgb(bytes: Uint8Array, maxPixels = 64e6): RgbImage {
  const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false, maxResolutionInMP: maxPixels / 1e6, maxMemoryUsageInMB: 2048 });
  const n = img.width * img.height;
  const channels = img.data.length / n;
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) out[i * 3 + k] = img.data[i * channels + (channels >= 3 ? k : 0)] / 255;
  }
  return { width: img.width, height: img.height, data: out };
}
