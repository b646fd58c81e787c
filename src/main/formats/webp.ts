// WebP decoding for SOG textures through `@jsquash/webp` (libwebp compiled to WebAssembly), with
// the lab's size check first: the container's declared width and height are read here (VP8L,
// VP8 and VP8X headers) and refused above the limit before libwebp allocates anything.
// Input: WebP bytes. Output: RGBA pixels. Invariant: one line (WebpError) for any bad image.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { RgbaImage } from '../../shared/formats/sog';
import { checkLimit } from '../io/limits';

/** Largest SOG texture: 4096 x 4096 texels holds 16M Gaussians, four times MAX_SCENE_ROWS. */
export const MAX_WEBP_PIXELS = 4096 * 4096;

export class WebpError extends Error {
  override name = 'WebpError';
}

const fourcc = (b: Uint8Array, at: number): string => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

/** Width and height a WebP declares, from its first chunk header. */
export function webpSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.length < 30 || fourcc(bytes, 0) !== 'RIFF' || fourcc(bytes, 8) !== 'WEBP') throw new WebpError('not a WebP image (no RIFF/WEBP header)');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = fourcc(bytes, 12);
  if (kind === 'VP8L') {
    if (bytes[20] !== 0x2f) throw new WebpError('bad lossless WebP signature');
    const bits = v.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (kind === 'VP8X') {
    const u24 = (at: number): number => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
    return { width: u24(24) + 1, height: u24(27) + 1 };
  }
  if (kind === 'VP8 ') return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
  throw new WebpError(`unknown WebP chunk '${kind}'`);
}

type Decode = (buffer: ArrayBuffer) => Promise<{ data: Uint8ClampedArray; width: number; height: number }>;
let decoder: Promise<Decode> | null = null;

async function loadDecoder(): Promise<Decode> {
  const mod = (await import('@jsquash/webp/decode.js')) as { init: (m: unknown) => Promise<void>; default: Decode };
  // In Node the wasm is compiled from the package's file (the browser path would fetch it).
  const wasm = createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm');
  // The node lib (ES2023, no DOM) types WebAssembly as a namespace only; Node has the global.
  const wa = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<unknown> } }).WebAssembly;
  await mod.init(await wa.compile(readFileSync(wasm)));
  return mod.default;
}

/** Decodes after the header's size is checked against MAX_WEBP_PIXELS and the caller's `maxPixels`. */
export async function decodeWebp(bytes: Uint8Array, name: string, maxPixels = MAX_WEBP_PIXELS): Promise<RgbaImage> {
  const size = webpSize(bytes);
  checkLimit(`WebP ${name} (${size.width}x${size.height})`, size.width * size.height, Math.min(MAX_WEBP_PIXELS, maxPixels));
  decoder ??= loadDecoder();
  const decode = await decoder;
  let img;
  try {
    img = await decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  } catch {
    throw new WebpError(`WebP ${name}: libwebp could not decode it (corrupt or truncated)`);
  }
  if (img.width !== size.width || img.height !== size.height) throw new WebpError(`WebP ${name}: decoded ${img.width}x${img.height}, the header says ${size.width}x${size.height}`);
  return { width: img.width, height: img.height, rgba: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength) };
}
