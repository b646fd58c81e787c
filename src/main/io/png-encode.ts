// PNG encoder: 8-bit grey, RGB or RGBA, one filter per row chosen by the usual heuristic
// (smallest sum of absolute signed bytes), deflated with node:zlib.
// Input: float images ([H, W, C] in [0, 1], rounded to 8 bits) or 8-bit pixel arrays.
// Invariant: decodePng(encodePng(img)) returns the same 8-bit values.
import { deflateSync } from 'node:zlib';
import type { RgbImage, RgbaImage } from '../../shared/image/image';
import { PNG_SIGNATURE, PngError, writeChunk } from './png-chunks';

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

const COLOR_TYPE: Record<number, number> = { 1: 0, 2: 4, 3: 2, 4: 6 };

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

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Filters one row with filter `f` into `out` (stride bytes). */
function filterRow(f: number, cur: Uint8Array, prev: Uint8Array | null, bpp: number, out: Uint8Array): void {
  for (let x = 0; x < cur.length; x++) {
    const a = x >= bpp ? cur[x - bpp] : 0;
    const b = prev ? prev[x] : 0;
    const c = prev && x >= bpp ? prev[x - bpp] : 0;
    const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : paeth(a, b, c);
    out[x] = (cur[x] - pred) & 0xff;
  }
}

/** Encodes an image as an 8-bit PNG; channel count comes from `channels` or the data length. */
export function encodePng(img: EncodableImage): Uint8Array {
  const { channels, bytes } = toBytes(img);
  const stride = img.width * channels;
  const raw = new Uint8Array(img.height * (stride + 1));
  const trial = new Uint8Array(stride);
  for (let y = 0; y < img.height; y++) {
    const cur = bytes.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? bytes.subarray((y - 1) * stride, y * stride) : null;
    let best = 0;
    let bestCost = Infinity;
    for (let f = 0; f < 5; f++) {
      filterRow(f, cur, prev, channels, trial);
      let cost = 0;
      for (let x = 0; x < stride; x++) cost += trial[x] < 128 ? trial[x] : 256 - trial[x];
      if (cost < bestCost) {
        bestCost = cost;
        best = f;
      }
    }
    raw[y * (stride + 1)] = best;
    filterRow(best, cur, prev, channels, raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, img.width);
  view.setUint32(4, img.height);
  ihdr[8] = 8;
  ihdr[9] = COLOR_TYPE[channels];
  const parts = [PNG_SIGNATURE, writeChunk('IHDR', ihdr), writeChunk('IDAT', deflateSync(raw)), writeChunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
