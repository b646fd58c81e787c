// PNG decoder (non-interlaced): grey, grey+alpha, RGB, RGBA and palette images at every legal
// bit depth (1/2/4/8/16), all five row filters, tRNS transparency. Uses node:zlib only.
// Input: file bytes. Output: DecodedPng, row-major [H, W, channels] floats in [0, 1].
// Invariant: any malformed, corrupt or truncated input throws a PngError, never garbage pixels.
import { inflateSync } from 'node:zlib';
import { PngError, readChunks } from './png-chunks';

export interface DecodedPng {
  width: number;
  height: number;
  /** 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. tRNS adds an alpha channel; palettes expand to RGB(A). */
  channels: 1 | 2 | 3 | 4;
  data: Float32Array; // [H, W, channels] in [0, 1]
}

interface Header {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
}

const SAMPLES_PER_PIXEL: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const LEGAL_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function parseHeader(data: Uint8Array): Header {
  if (data.length !== 13) throw new PngError(`IHDR has ${data.length} bytes, expected 13`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const header = { width: view.getUint32(0), height: view.getUint32(4), bitDepth: data[8], colorType: data[9], interlace: data[12] };
  if (header.width === 0 || header.height === 0) throw new PngError(`invalid size ${header.width}x${header.height}`);
  const depths = LEGAL_DEPTHS[header.colorType];
  if (!depths) throw new PngError(`unknown colour type ${header.colorType}`);
  if (!depths.includes(header.bitDepth)) throw new PngError(`bit depth ${header.bitDepth} is not allowed for colour type ${header.colorType}`);
  if (data[10] !== 0 || data[11] !== 0) throw new PngError('unknown compression or filter method');
  if (header.interlace === 1) throw new PngError('interlaced (Adam7) images are not supported; save the image without interlacing');
  if (header.interlace !== 0) throw new PngError(`unknown interlace method ${header.interlace}`);
  return header;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Reverses the per-row filters; returns the unfiltered rows, [H, stride] bytes. */
function unfilter(raw: Uint8Array, height: number, stride: number, bpp: number): Uint8Array {
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride; // previous row in `out`; only read when y > 0
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp] : 0;
      const b = y > 0 ? out[prev + x] : 0;
      const c = x >= bpp && y > 0 ? out[prev + x - bpp] : 0;
      let predictor: number;
      switch (filter) {
        case 0: predictor = 0; break;
        case 1: predictor = a; break;
        case 2: predictor = b; break;
        case 3: predictor = (a + b) >> 1; break;
        case 4: predictor = paeth(a, b, c); break;
        default: throw new PngError(`unknown filter type ${filter} on row ${y}`);
      }
      out[row + x] = (raw[src + x] + predictor) & 0xff;
    }
  }
  return out;
}

/** Reads sample `i` of a row of `depth`-bit samples as an integer. */
function sampleAt(rows: Uint8Array, rowStart: number, i: number, depth: number): number {
  if (depth === 8) return rows[rowStart + i];
  if (depth === 16) return (rows[rowStart + 2 * i] << 8) | rows[rowStart + 2 * i + 1];
  const bit = i * depth;
  const byte = rows[rowStart + (bit >> 3)];
  return (byte >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
}

interface Palette {
  rgb: Uint8Array; // [n, 3]
  alpha: Uint8Array | null; // [n]; entries past tRNS's length are opaque
}

function toFloat(h: Header, rows: Uint8Array, stride: number, palette: Palette | null, trns: Uint8Array | null): DecodedPng {
  const { width, height, bitDepth, colorType } = h;
  const spp = SAMPLES_PER_PIXEL[colorType];
  const maxv = (1 << bitDepth) - 1;
  const n = width * height;
  if (colorType === 3) {
    if (!palette) throw new PngError('palette image has no PLTE chunk');
    const channels = palette.alpha ? 4 : 3;
    const data = new Float32Array(n * channels);
    const entries = palette.rgb.length / 3;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const idx = sampleAt(rows, y * stride, x, bitDepth);
        if (idx >= entries) throw new PngError(`palette index ${idx} out of range (${entries} entries)`);
        const o = (y * width + x) * channels;
        for (let c = 0; c < 3; c++) data[o + c] = palette.rgb[idx * 3 + c] / 255;
        if (palette.alpha) data[o + 3] = (idx < palette.alpha.length ? palette.alpha[idx] : 255) / 255;
      }
    }
    return { width, height, channels, data };
  }
  // tRNS on grey (one 16-bit sample) or RGB (three) marks one exact colour as transparent.
  let key: number[] | null = null;
  if (trns && (colorType === 0 || colorType === 2)) {
    if (trns.length !== spp * 2) throw new PngError(`tRNS has ${trns.length} bytes, expected ${spp * 2}`);
    key = Array.from({ length: spp }, (_, i) => (trns[2 * i] << 8) | trns[2 * i + 1]);
  }
  const channels = (spp + (key ? 1 : 0)) as 1 | 2 | 3 | 4;
  const data = new Float32Array(n * channels);
  const px: number[] = new Array<number>(spp);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * channels;
      let isKey = key !== null;
      for (let s = 0; s < spp; s++) {
        px[s] = sampleAt(rows, y * stride, x * spp + s, bitDepth);
        data[o + s] = px[s] / maxv;
        if (key && px[s] !== key[s]) isKey = false;
      }
      if (key) data[o + spp] = isKey ? 0 : 1;
    }
  }
  return { width, height, channels, data };
}

/** Decodes a PNG file. Throws PngError with one clear message for anything it cannot read. */
export function decodePng(buf: Uint8Array): DecodedPng {
  const chunks = readChunks(buf);
  if (chunks[0].type !== 'IHDR') throw new PngError('first chunk is not IHDR');
  const header = parseHeader(chunks[0].data);
  let palette: Palette | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  for (const chunk of chunks.slice(1)) {
    if (chunk.type === 'PLTE') {
      if (chunk.data.length % 3 !== 0 || chunk.data.length === 0 || chunk.data.length > 768) throw new PngError(`PLTE has invalid length ${chunk.data.length}`);
      palette = { rgb: chunk.data, alpha: null };
    } else if (chunk.type === 'tRNS') {
      trns = chunk.data;
    } else if (chunk.type === 'IDAT') {
      idat.push(chunk.data);
    } else if (chunk.type === 'IHDR') {
      throw new PngError('more than one IHDR chunk');
    } else if ((chunk.type.charCodeAt(0) & 0x20) === 0 && chunk.type !== 'IEND') {
      throw new PngError(`unknown critical chunk ${chunk.type}`);
    }
  }
  if (idat.length === 0) throw new PngError('no image data (IDAT) chunk');
  if (palette && trns && header.colorType === 3) {
    if (trns.length > palette.rgb.length / 3) throw new PngError('tRNS has more entries than the palette');
    palette.alpha = trns;
  }
  let raw: Uint8Array;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch (err) {
    throw new PngError(`image data does not decompress (${(err as Error).message})`);
  }
  const spp = SAMPLES_PER_PIXEL[header.colorType];
  const stride = Math.ceil((header.width * spp * header.bitDepth) / 8);
  const expected = header.height * (stride + 1);
  if (raw.length < expected) throw new PngError(`image data truncated: ${raw.length} of ${expected} bytes`);
  const bpp = Math.max(1, (spp * header.bitDepth) >> 3);
  const rows = unfilter(raw, header.height, stride, bpp);
  return toFloat(header, rows, stride, palette, trns);
}
