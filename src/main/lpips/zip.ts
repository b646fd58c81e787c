// Minimal zip reader for torch .pth archives: end-of-central-directory, central directory,
// local headers; stored and deflated entries (node:zlib inflateRaw); CRC-32 checked.
// Input: the whole file. Output: entry names and a function returning an entry's bytes.
// Invariant: every returned entry lies inside the file and matches its recorded CRC and size.
import { inflateRawSync } from 'node:zlib';
import { crc32 } from '../io/png-chunks';

export class ZipError extends Error {
  constructor(message: string) {
    super(`zip: ${message}`);
    this.name = 'ZipError';
  }
}

interface Entry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function isZip(buf: Uint8Array): boolean {
  return buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
}

export class ZipArchive {
  private readonly entries = new Map<string, Entry>();
  private readonly view: DataView;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const eocd = this.findEocd();
    const count = this.view.getUint16(eocd + 10, true);
    const dirOffset = this.view.getUint32(eocd + 16, true);
    if (dirOffset === 0xffffffff || count === 0xffff) throw new ZipError('zip64 archives are not supported');
    let at = dirOffset;
    for (let i = 0; i < count; i++) {
      if (at + 46 > buf.length || this.view.getUint32(at, true) !== CENTRAL) throw new ZipError(`corrupt central directory at byte ${at}`);
      const nameLen = this.view.getUint16(at + 28, true);
      const extraLen = this.view.getUint16(at + 30, true);
      const commentLen = this.view.getUint16(at + 32, true);
      const entry: Entry = {
        method: this.view.getUint16(at + 10, true),
        crc: this.view.getUint32(at + 16, true),
        compressedSize: this.view.getUint32(at + 20, true),
        size: this.view.getUint32(at + 24, true),
        localOffset: this.view.getUint32(at + 42, true),
        name: new TextDecoder().decode(buf.subarray(at + 46, at + 46 + nameLen)),
      };
      if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff || entry.localOffset === 0xffffffff) {
        throw new ZipError(`entry ${entry.name} needs zip64, which is not supported`);
      }
      this.entries.set(entry.name, entry);
      at += 46 + nameLen + extraLen + commentLen;
    }
  }

  private findEocd(): number {
    // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
    const stop = Math.max(0, this.buf.length - 22 - 65535);
    for (let at = this.buf.length - 22; at >= stop; at--) {
      if (this.view.getUint32(at, true) === EOCD) return at;
    }
    throw new ZipError('no end-of-central-directory record (truncated or not a zip file)');
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's uncompressed bytes. */
  read(name: string): Uint8Array {
    const e = this.entries.get(name);
    if (!e) throw new ZipError(`no entry named ${name}`);
    const at = e.localOffset;
    if (at + 30 > this.buf.length || this.view.getUint32(at, true) !== LOCAL) throw new ZipError(`corrupt local header for ${name}`);
    const start = at + 30 + this.view.getUint16(at + 26, true) + this.view.getUint16(at + 28, true);
    if (start + e.compressedSize > this.buf.length) throw new ZipError(`entry ${name} is truncated`);
    const raw = this.buf.subarray(start, start + e.compressedSize);
    let data: Uint8Array;
    if (e.method === 0) data = raw;
    else if (e.method === 8) {
      try {
        data = inflateRawSync(raw);
      } catch (err) {
        throw new ZipError(`entry ${name} does not inflate (${(err as Error).message})`);
      }
    } else throw new ZipError(`entry ${name} uses unsupported compression method ${e.method}`);
    if (data.length !== e.size) throw new ZipError(`entry ${name} has ${data.length} bytes, expected ${e.size}`);
    if (crc32(data) !== e.crc) throw new ZipError(`entry ${name} fails its CRC check (corrupt file)`);
    return data;
  }
}
