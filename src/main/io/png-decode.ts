// PNG decoder: the container checks and limits are ours, the pixel decoding (inflate, filters,
// bit depths, palettes, tRNS) is the `pngjs` package's.
// Input: file bytes (+ an optional pixel limit). Output: DecodedPng, row-major [H, W, channels]
// floats in [0, 1], channels as the file stores them (grey 1, grey+alpha 2, RGB 3, RGBA 4; tRNS
// adds alpha; palettes expand to RGB(A)).
// Invariants: any malformed, corrupt or truncated input throws a PngError, never garbage pixels;
// the declared size is checked against the limit before anything is inflated, and inflation is
// capped at the size the header implies, so a bomb is refused in bounded memory.
import { inflateSync } from 'node:zlib';
import type { PNG } from 'pngjs';
import { pngjs } from './lazy-packages';
import { checkLimit, MAX_PNG_PIXELS } from './limits';
import { PngError, readChunks } from './png-chunks';

export interface DecodedPng {
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
  data: Float32Array; // [H, W, channels] in [0, 1]
}

export interface DecodeOptions {
  /** Largest width x height accepted (default MAX_PNG_PIXELS). */
  maxPixels?: number;
}

interface Header {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
}

const SAMPLES_PER_PIXEL: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const LEGAL_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function parseHeader(data: Uint8Array, maxPixels: number): Header {
  if (data.length !== 13) throw new PngError(`IHDR has ${data.length} bytes, expected 13`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const header = { width: view.getUint32(0), height: view.getUint32(4), bitDepth: data[8], colorType: data[9] };
  if (header.width === 0 || header.height === 0) throw new PngError(`invalid size ${header.width}x${header.height}`);
  try {
    checkLimit(`an image of ${header.width}x${header.height} pixels`, header.width * header.height, maxPixels);
  } catch (err) {
    throw new PngError((err as Error).message);
  }
  const depths = LEGAL_DEPTHS[header.colorType];
  if (!depths) throw new PngError(`unknown colour type ${header.colorType}`);
  if (!depths.includes(header.bitDepth)) throw new PngError(`bit depth ${header.bitDepth} is not allowed for colour type ${header.colorType}`);
  if (data[10] !== 0 || data[11] !== 0) throw new PngError('unknown compression or filter method');
  if (data[12] === 1) throw new PngError('interlaced (Adam7) images are not supported; save the image without interlacing');
  if (data[12] !== 0) throw new PngError(`unknown interlace method ${data[12]}`);
  return header;
}

/** pngjs's messages, reworded as the lab's one-line PngErrors. */
function reword(message: string): string {
  const filter = /Unrecognised filter type - (\d+)/.exec(message);
  if (filter) return `unknown filter type ${filter[1]}`;
  const index = /index (\d+) not in palette/.exec(message);
  if (index) return `palette index ${index[1]} out of range`;
  if (/Ran out of data|unexpected end|invalid inflate data/i.test(message)) return `image data truncated (${message})`;
  return `image data does not decompress (${message})`;
}

/**
 * Inflates the image data once, capped at the size the header implies, and checks it is all
 * there: pngjs accepts a truncated or non-zlib stream without a word.
 */
function checkImageData(chunks: readonly { type: string; data: Uint8Array }[], header: Header, spp: number): void {
  const stride = Math.ceil((header.width * spp * header.bitDepth) / 8);
  const expected = header.height * (stride + 1);
  let raw: Uint8Array;
  try {
    raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)), { maxOutputLength: expected });
  } catch (err) {
    const message = (err as Error).message;
    if (/maxOutputLength|Cannot create a Buffer larger/i.test(message)) throw new PngError(`image data inflates past the ${expected} bytes its header implies`);
    throw new PngError(`image data does not decompress (${message})`);
  }
  if (raw.length < expected) throw new PngError(`image data truncated: ${raw.length} of ${expected} bytes`);
}

/** Decodes a PNG file. Throws PngError with one clear message for anything it cannot read. */
export function decodePng(buf: Uint8Array, opts: DecodeOptions = {}): DecodedPng {
  const chunks = readChunks(buf);
  if (chunks[0].type !== 'IHDR') throw new PngError('first chunk is not IHDR');
  const header = parseHeader(chunks[0].data, opts.maxPixels ?? MAX_PNG_PIXELS);
  if (chunks.slice(1).some((c) => c.type === 'IHDR')) throw new PngError('more than one IHDR chunk');
  const plte = chunks.find((c) => c.type === 'PLTE');
  const trns = chunks.find((c) => c.type === 'tRNS');
  if (plte && (plte.data.length % 3 !== 0 || plte.data.length === 0 || plte.data.length > 768)) throw new PngError(`PLTE has invalid length ${plte.data.length}`);
  if (header.colorType === 3 && !plte) throw new PngError('palette image has no PLTE chunk');
  if (!chunks.some((c) => c.type === 'IDAT')) throw new PngError('no image data (IDAT) chunk');
  const spp = SAMPLES_PER_PIXEL[header.colorType];
  if (trns && header.colorType === 3 && plte && trns.data.length > plte.data.length / 3) throw new PngError('tRNS has more entries than the palette');
  if (trns && (header.colorType === 0 || header.colorType === 2) && trns.data.length !== spp * 2) throw new PngError(`tRNS has ${trns.data.length} bytes, expected ${spp * 2}`);
  checkImageData(chunks, header, spp);
  let png: PNG;
  try {
    png = pngjs().PNG.sync.read(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength), { skipRescale: true });
  } catch (err) {
    throw new PngError(reword((err as Error).message));
  }
  const keyed = trns !== undefined && (header.colorType === 0 || header.colorType === 2);
  const alpha = header.colorType === 4 || header.colorType === 6 || (trns !== undefined && (keyed || header.colorType === 3));
  const colour = header.colorType === 2 || header.colorType === 3 || header.colorType === 6;
  const channels = ((colour ? 3 : 1) + (alpha ? 1 : 0)) as 1 | 2 | 3 | 4;
  // pngjs returns RGBA with palette indices resolved to 8-bit entries and, with skipRescale, every
  // other sample at its own depth (alpha filled with the depth's maximum); a tRNS key match comes
  // back as all zeros, so the key colour is put back under the zero alpha.
  const max = header.colorType === 3 ? 255 : 2 ** header.bitDepth - 1;
  const key = keyed && trns ? Array.from({ length: spp }, (_, i) => (trns.data[2 * i] << 8) | trns.data[2 * i + 1]) : null;
  const src = png.data as unknown as ArrayLike<number>;
  const n = header.width * header.height;
  const data = new Float32Array(n * channels);
  const pick = colour ? (alpha ? [0, 1, 2, 3] : [0, 1, 2]) : alpha ? [0, 3] : [0];
  if (key === null && header.bitDepth === 8 && (channels === 3 || channels === 1)) {
    // The photos' and masks' formats: the same quotients as the general loop, without its lookups.
    const bytes = png.data;
    for (let i = 0; i < n; i++) {
      if (channels === 1) {
        data[i] = bytes[i * 4] / max;
      } else {
        data[i * 3] = bytes[i * 4] / max;
        data[i * 3 + 1] = bytes[i * 4 + 1] / max;
        data[i * 3 + 2] = bytes[i * 4 + 2] / max;
      }
    }
    return { width: header.width, height: header.height, channels, data };
  }
  for (let i = 0; i < n; i++) {
    const hidden = key !== null && src[i * 4 + 3] === 0;
    for (let c = 0; c < channels; c++) {
      const k = pick[c];
      data[i * channels + c] = (hidden && k < 3 ? key[colour ? k : 0] : src[i * 4 + k]) / max;
    }
  }
  return { width: header.width, height: header.height, channels, data };
}
