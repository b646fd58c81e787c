// PNG encoder: 8-bit grey, RGB or RGBA through the `pngjs` package (node:zlib deflate); this file
// only turns the lab's images into 8-bit samples. Every row takes the Paeth filter at deflate level
// 6: on an 8-view render sheet that is 3x faster than pngjs's default (all five filters tried per
// row, level 9) and the file is no larger (photos and renders favour Paeth), and a sheet is on the
// path of every render_views answer.
// Input: float images ([H, W, C] in [0, 1], rounded to 8 bits) or 8-bit pixel arrays.
// Invariant: decodePng(encodePng(img)) returns the same 8-bit values.
import type { ColorType } from 'pngjs';
import { pngjs } from './lazy-packages';
import type { RgbImage, RgbaImage } from '../../shared/image/image';
import { PngError } from './png-chunks';

export interface Uint8Pixels {
  width: number;
  height: number;
  channels: 1 | 3 | 4;
  data: Uint8Array; // [H, W, channels]
}

export interface FloatPixels {
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  data: Float32Array; // [H, W, channels] in [0, 1]
}

export type EncodableImage = RgbImage | RgbaImage | Uint8Pixels | FloatPixels;

const COLOR_TYPE: Record<number, ColorType> = { 1: 0, 2: 4, 3: 2, 4: 6 };

function toBytes(img: EncodableImage): { channels: number; bytes: Uint8Array } {
  const n = img.width * img.height;
  if (!Number.isInteger(img.width) || !Number.isInteger(img.height) || n <= 0) {
    throw new PngError(`cannot encode an image of size ${img.width}x${img.height}`);
  }
  const channels = 'channels' in img ? img.channels : img.data.length / n;
  if (!(channels in COLOR_TYPE) || img.data.length !== n * channels) {
    throw new PngError(`cannot encode: ${img.data.length} values for ${img.width}x${img.height} pixels`);
  }
  if (img.data instanceof Uint8Array) return { channels, bytes: img.data };
  const bytes = new Uint8Array(img.data.length);
  for (let i = 0; i < bytes.length; i++) {
    const v = img.data[i];
    bytes[i] = Math.round(Math.min(1, Math.max(0, Number.isNaN(v) ? 0 : v)) * 255);
  }
  return { channels, bytes };
}

/** Encodes an image as an 8-bit PNG; channel count comes from `channels` or the data length. */
export function encodePng(img: EncodableImage): Uint8Array {
  const { channels, bytes } = toBytes(img);
  const colorType = COLOR_TYPE[channels];
  const { PNG } = pngjs();
  const png = new PNG({ width: img.width, height: img.height, colorType, inputColorType: colorType, inputHasAlpha: channels === 2 || channels === 4, bitDepth: 8 });
  png.data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new Uint8Array(PNG.sync.write(png, { colorType, inputColorType: colorType, inputHasAlpha: channels === 2 || channels === 4, bitDepth: 8, filterType: 4, deflateLevel: 6 }));
}
