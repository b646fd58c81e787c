// readSplatFile: the one entry that opens any supported splat file from disk (docs/FORMATS.md):
// detects the format from its bytes (the name only breaks ties), checks declared sizes against
// the limits and the caller's memory budget before allocating, streams fixed-stride bodies in
// row-aligned chunks with progress and cancellation, and returns the Splats with the format named.
// Inputs: a path (file, or a folder holding a SOG meta.json) and options. Output: SplatFile.
// Invariant: every failure is one SplatFileError line "<path>: <format>: <what>"; a refused file
// leaves nothing behind (the readers never write).
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { parsePlyHeader } from '../../shared/formats/ply-header';
import { isCompressedPly, CompressedPlyDecoder } from '../../shared/formats/ply-compressed';
import { decodeAsciiBody, InriaPlyDecoder } from '../../shared/formats/ply-inria';
import { decodeSog, parseSogMeta, sogFiles, type RgbaImage, type SogMeta } from '../../shared/formats/sog';
import { SplatDecoder } from '../../shared/formats/splat';
import { decodeSpz, parseSpzHeader, spzLegacyStreams, spzStreamSizes, spzV4Toc, type SpzHeader } from '../../shared/formats/spz';
import { decodedBytesPerGaussian, FORMAT_LABELS, FormatError, type SplatFileData, type StreamDecoder } from '../../shared/formats/types';
import { MAX_SCENE_ROWS } from '../io/limits';
import { isZip, ZipArchive } from '../io/zip';
import { detectFormat } from './detect';
import { decodeWebp } from './webp';

export interface ReadProgress {
  phase: 'read' | 'inflate' | 'decode';
  done: number;
  total: number;
}

export interface ReadSplatOptions {
  onProgress?: (p: ReadProgress) => void;
  signal?: AbortSignal;
  /** Most Gaussians accepted (default MAX_SCENE_ROWS). */
  maxGaussians?: number;
  /** Refuse a file whose decoded scene would need more bytes than this (default: no budget). */
  memoryBudgetBytes?: number;
  /** Float width of the decoded scene (default f32, what the rasterizers upload). */
  precision?: 'f32' | 'f64';
  /** The name to detect by when the path's own name is not the original (uploads). */
  name?: string;
}

export interface SplatFile extends SplatFileData {
  path: string;
  fileBytes: number;
}

export class SplatFileError extends Error {
  override name = 'SplatFileError';
}

/** Bytes read per chunk while streaming (a whole number of rows is taken from it). */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** ASCII PLY bodies and compressed containers are read whole; above this they are refused. */
const MAX_WHOLE_FILE_BYTES = 1024 * 1024 * 1024;

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Inflation a compressed container may declare (issue 29 item 8): at most this many times its
 * own size, above a floor that every small file passes. Real splat streams (noisy positions,
 * quantised colours) compress a few times at most; a ratio far past this is a file of zeros
 * dressed as millions of Gaussians, refused from its header before anything is inflated.
 */
export const MAX_INFLATE_RATIO = 64;
export const INFLATE_FLOOR_BYTES = 64 * 1024 * 1024;

function checkInflation(label: string, declared: number, compressed: number, what: string): void {
  const allowed = Math.max(INFLATE_FLOOR_BYTES, MAX_INFLATE_RATIO * compressed);
  if (declared > allowed) {
    throw new FormatError(`${label}: ${what} declares ${mib(declared)} inflated from ${mib(compressed)}, over ${MAX_INFLATE_RATIO} times its size (a decompression bomb): refused before inflating`);
  }
}

function checkBudget(label: string, count: number, degree: number, extra: number, opts: ReadSplatOptions): void {
  const need = count * decodedBytesPerGaussian(degree) + extra;
  const budget = opts.memoryBudgetBytes;
  if (budget !== undefined && need > budget) {
    throw new FormatError(`${label}: ${count} Gaussians (SH degree ${degree}) need about ${mib(need)} decoded, over the memory budget of ${mib(budget)}: refused before decoding`);
  }
}

function checkAbort(opts: ReadSplatOptions): void {
  if (opts.signal?.aborted) throw new FormatError('cancelled');
}

async function streamSegments(fh: FileHandle, decoder: StreamDecoder, fileBytes: number, label: string, opts: ReadSplatOptions): Promise<SplatFileData> {
  for (const s of decoder.segments) {
    const end = s.offset + s.count * s.rowBytes;
    if (end > fileBytes) {
      const rows = Math.max(0, Math.floor((fileBytes - s.offset) / Math.max(1, s.rowBytes)));
      throw new FormatError(`${label}: truncated: ${s.count} ${s.name} rows need ${end} bytes, the file has ${fileBytes} (${rows} complete rows)`);
    }
  }
  const total = decoder.segments.reduce((a, s) => a + s.count * s.rowBytes, 0);
  const maxRow = Math.max(1, ...decoder.segments.map((s) => s.rowBytes));
  const buffer = new Uint8Array(Math.max(maxRow, Math.floor(CHUNK_BYTES / maxRow) * maxRow));
  let done = 0;
  for (const s of decoder.segments) {
    const perChunk = Math.max(1, Math.floor(buffer.byteLength / s.rowBytes));
    for (let first = 0; first < s.count; first += perChunk) {
      checkAbort(opts);
      const rows = Math.min(perChunk, s.count - first);
      const want = rows * s.rowBytes;
      const { bytesRead } = await fh.read(buffer, 0, want, s.offset + first * s.rowBytes);
      if (bytesRead !== want) throw new FormatError(`${label}: truncated while reading ${s.name} row ${first} (the file changed or ended early)`);
      s.decode(buffer.subarray(0, want), first, rows);
      done += want;
      opts.onProgress?.({ phase: 'decode', done, total });
    }
  }
  return decoder.finish();
}

async function readPly(fh: FileHandle, fileBytes: number, head: Uint8Array, opts: ReadSplatOptions, max: number): Promise<SplatFileData> {
  let header;
  try {
    header = parsePlyHeader(head);
  } catch (error) {
    throw new FormatError(`PLY: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (isCompressedPly(header)) {
    const d = new CompressedPlyDecoder(header, { maxRows: max, precision: opts.precision });
    checkBudget(FORMAT_LABELS['compressed-ply'], d.count, d.shDegree, 0, opts);
    return streamSegments(fh, d, fileBytes, FORMAT_LABELS['compressed-ply'], opts);
  }
  const d = new InriaPlyDecoder(header, { maxRows: max, precision: opts.precision });
  checkBudget(FORMAT_LABELS['inria-ply'], d.count, d.shDegree, 0, opts);
  if (header.format !== 'ascii') return streamSegments(fh, d, fileBytes, FORMAT_LABELS['inria-ply'], opts);
  if (fileBytes > MAX_WHOLE_FILE_BYTES) throw new FormatError(`${FORMAT_LABELS['inria-ply']}: an ASCII body of ${mib(fileBytes)} is over the ${mib(MAX_WHOLE_FILE_BYTES)} read whole`);
  const all = new Uint8Array(fileBytes);
  await fh.read(all, 0, fileBytes, 0);
  decodeAsciiBody(d, new TextDecoder('latin1').decode(all.subarray(header.bodyOffset)));
  return d.finish();
}

/**
 * A v2/v3 SPZ is one gzip stream holding the header and every attribute stream. It is inflated
 * in pieces: the header first, then exactly the bytes its count needs (checked against the limits
 * and the memory budget before they are allocated), so a small file that inflates far past its
 * header (a decompression bomb) is refused after at most one output piece more than it declared.
 * The inflater is Node's zlib (native, on libuv's thread pool: several times fflate's speed on
 * large captures), its output pieces (INFLATE_PIECE bytes at most) copied into the one payload.
 */
async function inflateSpz(source: AsyncIterable<Uint8Array>, compressedBytes: number, opts: ReadSplatOptions, max: number): Promise<{ header: SpzHeader; payload: Uint8Array }> {
  const label = FORMAT_LABELS.spz;
  const INFLATE_PIECE = 1 << 20;
  const head = new Uint8Array(16);
  let headFill = 0;
  let header: SpzHeader | null = null;
  let payload: Uint8Array | null = null;
  let fill = 0;
  const take = (chunk: Uint8Array): void => {
    let at = 0;
    if (!header) {
      const n = Math.min(16 - headFill, chunk.byteLength);
      head.set(chunk.subarray(0, n), headFill);
      headFill += n;
      at = n;
      if (headFill < 16) return;
      const h = parseSpzHeader(head, max);
      if (h.version >= 4) throw new FormatError(`${label}: a v${h.version} file must not be gzip-wrapped`);
      checkBudget(label, h.count, h.shDegree, 0, opts);
      checkInflation(label, h.headerBytes + spzStreamSizes(h).reduce((x, y) => x + y, 0), compressedBytes, `the header (${h.count} Gaussians, SH degree ${h.shDegree})`);
      header = h;
      payload = new Uint8Array(h.headerBytes + spzStreamSizes(h).reduce((x, y) => x + y, 0));
      payload.set(head.subarray(0, Math.min(16, payload.byteLength)));
      fill = 16;
    }
    const rest = chunk.subarray(at);
    if (!payload) return;
    if (fill + rest.byteLength > payload.byteLength) throw new FormatError(`${label}: inflates past the ${payload.byteLength} bytes its header declares (${header?.count} Gaussians): refused`);
    payload.set(rest, fill);
    fill += rest.byteLength;
  };
  const gunzip = createGunzip({ chunkSize: INFLATE_PIECE });
  const input = Readable.from(source);
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      checkAbort(opts);
      take(chunk);
    }
  } catch (error) {
    if (error instanceof FormatError) throw error;
    throw new FormatError(`${label}: the gzip stream is corrupt or truncated (${(error as Error).message})`);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
  const h = header as SpzHeader | null;
  if (!h || !payload) throw new FormatError(`${label}: truncated: the file inflates to ${headFill} bytes, the header alone is 16`);
  return { header: h, payload: (payload as Uint8Array).subarray(0, fill) };
}

/** A v2/v3 SPZ inflated straight from the file (the compressed bytes are never held whole). */
async function readSpzGzip(fh: FileHandle, size: number, opts: ReadSplatOptions, max: number): Promise<SplatFileData> {
  if (size > MAX_WHOLE_FILE_BYTES) throw new FormatError(`${FORMAT_LABELS.spz}: ${mib(size)} is over the ${mib(MAX_WHOLE_FILE_BYTES)} a compressed file may have`);
  const { header: h, payload } = await inflateSpz(fh.createReadStream({ start: 0, autoClose: false, highWaterMark: 1 << 20 }), size, opts, max);
  opts.onProgress?.({ phase: 'inflate', done: size, total: size });
  return decodeSpz(h, spzLegacyStreams(payload, h), opts.precision);
}

function readSpzBytes(raw: Uint8Array, opts: ReadSplatOptions, max: number): SplatFileData {
  const label = FORMAT_LABELS.spz;
  const h: SpzHeader = parseSpzHeader(raw, max);
  if (h.version < 4) throw new FormatError(`${label}: a v${h.version} file must be gzip-compressed`);
  checkBudget(label, h.count, h.shDegree, spzStreamSizes(h).reduce((a, b) => a + b, 0), opts);
  const toc = spzV4Toc(raw, h);
  checkInflation(label, toc.reduce((a, t) => a + t.uncompressed, 0), raw.byteLength, `the stream table (${h.count} Gaussians, SH degree ${h.shDegree})`);
  const parts = toc.map((t, i) => {
    const out = new Uint8Array(t.uncompressed);
    let got: Uint8Array;
    try {
      got = zstdDecompress(raw.subarray(t.offset, t.offset + t.compressed), out);
    } catch (error) {
      throw new FormatError(`${label}: v4 stream ${i} is corrupt or truncated (${(error as Error).message})`);
    }
    if (got.byteLength !== t.uncompressed) throw new FormatError(`${label}: v4 stream ${i} inflated to ${got.byteLength} bytes, ${t.uncompressed} declared`);
    return got;
  });
  const empty = new Uint8Array(0);
  return decodeSpz(h, { positions: parts[0], alphas: parts[1], colors: parts[2], scales: parts[3], rotations: parts[4], sh: parts[5] ?? empty }, opts.precision);
}

/** A SOG texture name must stay inside the folder or bundle (no paths). */
function textureName(name: string): string {
  if (name.includes('/') || name.includes('\\') || name.startsWith('.')) throw new FormatError(`${FORMAT_LABELS.sog}: texture name '${name}' is not a plain file name`);
  return name;
}

/** Largest meta.json read (its codebooks are 256 numbers each). */
const MAX_SOG_META_BYTES = 1024 * 1024;

/**
 * Texels a SOG texture may have for this meta: a `count`-entry texture with each side up to twice
 * what a near-square layout needs (writers round sides up to multiples of 4 or to powers of two);
 * the SH centroids are 64 x coefficients wide, one row per 64 palette entries. A texture past this
 * is not one this meta needs, so its WebP is refused from its header.
 */
export function sogTexelBudget(meta: SogMeta, name: string): number {
  const sh = meta.shN;
  if (sh && name === sh.files[0]) return 64 * ((sh.bands + 1) ** 2 - 1) * (Math.ceil(sh.count / 64) + 4);
  const side = 2 * (Math.ceil(Math.sqrt(Math.max(1, meta.count))) + 4);
  return side * side;
}

/** Bytes a lossless WebP of `texels` RGBA texels may take (raw RGBA and the container's slack). */
const webpBytesFor = (texels: number): number => texels * 5 + 64 * 1024;

async function decodeSogWith(meta: SogMeta, load: (name: string) => Promise<Uint8Array>, opts: ReadSplatOptions): Promise<SplatFileData> {
  const names = sogFiles(meta);
  const rgbaBytes = names.reduce((a, n) => a + 4 * sogTexelBudget(meta, n), 0);
  checkBudget(FORMAT_LABELS.sog, meta.count, meta.shN?.bands ?? 0, rgbaBytes, opts);
  const images = new Map<string, RgbaImage>();
  for (const [i, name] of names.entries()) {
    checkAbort(opts);
    images.set(name, await decodeWebp(await load(textureName(name)), name, sogTexelBudget(meta, name)));
    opts.onProgress?.({ phase: 'decode', done: i + 1, total: names.length });
  }
  return decodeSog(meta, images, opts.precision);
}

/**
 * A .sog bundle: the zip's central directory is read first (no member inflated); meta.json is
 * read only when it declares at most MAX_SOG_META_BYTES, and each texture only when the size it
 * declares fits the WebP its meta allows (sogTexelBudget), so a member that would inflate past
 * what the scene needs is refused from the directory (issue 29 item 8).
 */
async function readSogBundle(raw: Uint8Array, opts: ReadSplatOptions, max: number): Promise<SplatFileData> {
  const label = FORMAT_LABELS.sog;
  const zip = new ZipArchive(raw);
  const metaName = zip.names().find((n) => basename(n) === 'meta.json');
  if (!metaName) throw new FormatError(`${label}: the .sog bundle holds no meta.json`);
  const member = (name: string): number => zip.declaredSize(name);
  if (member(metaName) > MAX_SOG_META_BYTES) throw new FormatError(`${label}: meta.json declares ${mib(member(metaName))}, over the ${mib(MAX_SOG_META_BYTES)} a meta may have: refused before inflating`);
  const prefix = metaName.slice(0, metaName.length - 'meta.json'.length);
  const meta = parseSogMeta(new TextDecoder().decode(zip.read(metaName)), max);
  for (const name of sogFiles(meta)) {
    const path = prefix + textureName(name);
    if (!zip.has(path)) throw new FormatError(`${label}: the bundle has no ${name}`);
    const allowed = webpBytesFor(sogTexelBudget(meta, name));
    if (member(path) > allowed) throw new FormatError(`${label}: member ${name} declares ${mib(member(path))}, over the ${mib(allowed)} a texture of ${meta.count} Gaussians can take: refused before inflating`);
  }
  return decodeSogWith(meta, async (name) => zip.read(prefix + name), opts);
}

async function readSogFolder(metaPath: string, opts: ReadSplatOptions, max: number): Promise<SplatFileData> {
  const size = (await stat(metaPath)).size;
  if (size > MAX_SOG_META_BYTES) throw new FormatError(`${FORMAT_LABELS.sog}: meta.json is ${mib(size)}, over the ${mib(MAX_SOG_META_BYTES)} a meta may have`);
  const meta = parseSogMeta(await readFile(metaPath, 'utf8'), max);
  const dir = dirname(metaPath);
  return decodeSogWith(meta, async (name) => {
    try {
      return new Uint8Array(await readFile(join(dir, name)));
    } catch {
      throw new FormatError(`${FORMAT_LABELS.sog}: texture ${name} is missing next to meta.json`);
    }
  }, opts);
}

async function readWhole(fh: FileHandle, size: number, label: string): Promise<Uint8Array> {
  if (size > MAX_WHOLE_FILE_BYTES) throw new FormatError(`${label}: ${mib(size)} is over the ${mib(MAX_WHOLE_FILE_BYTES)} a compressed file may have`);
  const all = new Uint8Array(size);
  const { bytesRead } = await fh.read(all, 0, size, 0);
  return all.subarray(0, bytesRead);
}

async function readAny(path: string, opts: ReadSplatOptions): Promise<{ data: SplatFileData; bytes: number }> {
  const max = Math.min(opts.maxGaussians ?? MAX_SCENE_ROWS, MAX_SCENE_ROWS);
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new FormatError('no such file');
  }
  if (info.isDirectory()) {
    const meta = join(path, 'meta.json');
    const ok = await stat(meta).then((s) => s.isFile(), () => false);
    if (!ok) throw new FormatError('a folder opens only as a SOG scene (meta.json + WebP textures), and this one has no meta.json');
    return { data: await readSogFolder(meta, opts, max), bytes: info.size };
  }
  const fh = await open(path, 'r');
  try {
    const head = new Uint8Array(Math.min(info.size, 65536));
    await fh.read(head, 0, head.byteLength, 0);
    const format = detectFormat(head, opts.name ?? basename(path), info.size);
    checkAbort(opts);
    switch (format) {
      case 'ply':
        return { data: await readPly(fh, info.size, head, opts, max), bytes: info.size };
      case 'splat': {
        const d = new SplatDecoder(info.size, { maxRows: max, precision: opts.precision });
        checkBudget(FORMAT_LABELS.splat, d.count, 0, 0, opts);
        return { data: await streamSegments(fh, d, info.size, FORMAT_LABELS.splat, opts), bytes: info.size };
      }
      case 'spz':
        if (head[0] === 0x1f && head[1] === 0x8b) return { data: await readSpzGzip(fh, info.size, opts, max), bytes: info.size };
        return { data: readSpzBytes(await readWhole(fh, info.size, FORMAT_LABELS.spz), opts, max), bytes: info.size };
      case 'sog-bundle': {
        const raw = await readWhole(fh, info.size, FORMAT_LABELS.sog);
        if (!isZip(raw)) throw new FormatError(`${FORMAT_LABELS.sog}: not a zip bundle`);
        return { data: await readSogBundle(raw, opts, max), bytes: info.size };
      }
      case 'sog-meta':
        return { data: await readSogFolder(path, opts, max), bytes: info.size };
    }
  } finally {
    await fh.close();
  }
}

/** Reads any supported splat file; see the header comment. */
export async function readSplatFile(path: string, opts: ReadSplatOptions = {}): Promise<SplatFile> {
  try {
    const { data, bytes } = await readAny(path, opts);
    return { ...data, path, fileBytes: bytes };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SplatFileError(`${path}: ${message.split('\n')[0]}`);
  }
}

