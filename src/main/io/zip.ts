// Zip archives (.npz, torch .pth) through the `fflate` package, with the lab's limits and checks
// around it. Input: the whole file. Output: member names and a function returning a member's
// bytes; writeZip makes a stored (uncompressed), reproducible archive.
// Invariants: a member's declared size is checked against MAX_ZIP_MEMBER_BYTES (and the sum
// against MAX_ZIP_TOTAL_BYTES) before it is inflated, inflation never writes past the declared
// size (fflate truncates), and every member read matches its size and recorded CRC-32, so a
// bomb or a corrupt file is refused in bounded memory.
import { crc32 } from 'node:zlib';
import type { UnzipFileInfo, Zippable } from 'fflate';
import { fflate } from './lazy-packages';
import { checkLimit, MAX_ZIP_MEMBER_BYTES, MAX_ZIP_TOTAL_BYTES } from './limits';

export class ZipError extends Error {
  constructor(message: string) {
    super(`zip: ${message}`);
    this.name = 'ZipError';
  }
}

export function isZip(buf: Uint8Array): boolean {
  return buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
}

/**
 * CRC-32 of each central-directory record (fflate reports names and sizes, not checksums).
 * fflate has already walked the same records, so only the fixed offsets are read here.
 */
function storedCrcs(buf: Uint8Array): Map<string, number> {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const out = new Map<string, number>();
  let eocd = buf.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  if (eocd < 0) return out;
  let at = view.getUint32(eocd + 16, true);
  for (let i = view.getUint16(eocd + 10, true); i > 0 && at + 46 <= buf.length && view.getUint32(at, true) === 0x02014b50; i--) {
    const nameLen = view.getUint16(at + 28, true);
    out.set(new TextDecoder().decode(buf.subarray(at + 46, at + 46 + nameLen)), view.getUint32(at + 16, true));
    at += 46 + nameLen + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return out;
}

export interface ZipLimits {
  maxMemberBytes: number;
  maxTotalBytes: number;
}

export class ZipArchive {
  private readonly entries = new Map<string, UnzipFileInfo>();
  private readonly crcs: Map<string, number>;

  constructor(
    private readonly buf: Uint8Array,
    limits: ZipLimits = { maxMemberBytes: MAX_ZIP_MEMBER_BYTES, maxTotalBytes: MAX_ZIP_TOTAL_BYTES },
  ) {
    let total = 0;
    this.scan((file) => {
      checkLimit(`zip member ${file.name}`, file.originalSize, limits.maxMemberBytes);
      total += file.originalSize;
      checkLimit('the zip members together', total, limits.maxTotalBytes);
      this.entries.set(file.name, { ...file });
      return false;
    });
    this.crcs = storedCrcs(buf);
  }

  private scan(filter: (file: UnzipFileInfo) => boolean): Record<string, Uint8Array> {
    try {
      return fflate().unzipSync(this.buf, { filter });
    } catch (err) {
      if (err instanceof Error && err.name === 'LimitError') throw err;
      const message = (err as Error).message;
      if (/invalid zip data/.test(message)) throw new ZipError('no end-of-central-directory record (truncated or not a zip file)');
      throw new ZipError(`unreadable archive (${message})`);
    }
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The uncompressed size the central directory declares for a member (nothing inflated). */
  declaredSize(name: string): number {
    const e = this.entries.get(name);
    if (!e) throw new ZipError(`no entry named ${name}`);
    return e.originalSize;
  }

  /** The member's uncompressed bytes (size and CRC checked). */
  read(name: string): Uint8Array {
    const e = this.entries.get(name);
    if (!e) throw new ZipError(`no entry named ${name}`);
    if (e.compression !== 0 && e.compression !== 8) throw new ZipError(`entry ${name} uses unsupported compression method ${e.compression}`);
    const data = this.scan((file) => file.name === name)[name];
    if (!data) throw new ZipError(`entry ${name} is truncated`);
    if (data.length !== e.originalSize) throw new ZipError(`entry ${name} has ${data.length} bytes, expected ${e.originalSize}`);
    if (crc32(data) >>> 0 !== this.crcs.get(name)) throw new ZipError(`entry ${name} fails its CRC check (corrupt file)`);
    return data;
  }
}

/** A stored (uncompressed) zip of the members in insertion order, dated 1980-01-01 (reproducible). */
export function writeZip(members: Record<string, Uint8Array>): Uint8Array {
  const files: Zippable = {};
  for (const [name, data] of Object.entries(members)) files[name] = [data, { level: 0 }];
  return fflate().zipSync(files, { mtime: new Date(1980, 0, 1) });
}
