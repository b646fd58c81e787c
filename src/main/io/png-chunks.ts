// PNG container layer, the glue in front of pngjs: signature, CRC-32 and chunk framing, read
// first so the header's declared size can be checked before any pixel data is inflated.
// Input: raw file bytes; output: the list of chunks with verified CRCs, or a PngError.
// Invariant: every chunk returned has passed its CRC check and lies wholly inside the buffer.

export class PngError extends Error {
  constructor(message: string) {
    super(`PNG: ${message}`);
    this.name = 'PngError';
  }
}

export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, as PNG uses) of the concatenation of `parts`. */
export function crc32(...parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) c = CRC_TABLE[(c ^ part[i]) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

export interface PngChunk {
  type: string; // four ASCII letters, e.g. 'IHDR'
  data: Uint8Array; // a view into the source buffer
}

function readU32(buf: Uint8Array, at: number): number {
  return ((buf[at] << 24) | (buf[at + 1] << 16) | (buf[at + 2] << 8) | buf[at + 3]) >>> 0;
}

/** Splits a PNG file into chunks up to and including IEND; checks signature, bounds and CRCs. */
export function readChunks(buf: Uint8Array): PngChunk[] {
  if (buf.length < PNG_SIGNATURE.length || PNG_SIGNATURE.some((b, i) => buf[i] !== b)) {
    throw new PngError('not a PNG file (bad signature)');
  }
  const chunks: PngChunk[] = [];
  let at = PNG_SIGNATURE.length;
  for (;;) {
    if (at + 8 > buf.length) throw new PngError(`file truncated at byte ${at} (no IEND chunk)`);
    const length = readU32(buf, at);
    const typeBytes = buf.subarray(at + 4, at + 8);
    const type = String.fromCharCode(...typeBytes);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new PngError(`corrupt chunk header at byte ${at}`);
    const end = at + 8 + length + 4;
    if (length > 0x7fffffff || end > buf.length) throw new PngError(`file truncated inside chunk ${type} at byte ${at}`);
    const data = buf.subarray(at + 8, at + 8 + length);
    const stored = readU32(buf, at + 8 + length);
    if (crc32(typeBytes, data) !== stored) throw new PngError(`CRC mismatch in chunk ${type} at byte ${at} (file is corrupt)`);
    chunks.push({ type, data });
    at = end;
    if (type === 'IEND') return chunks;
  }
}
