// Decompression and size bombs of each format (PNG, NPZ, PLY), generated here, must be refused
// with a clear error while the process's peak memory grows by less than 300 MB (measured with
// process.resourceUsage().maxRSS, the peak resident set, against the RSS before the decode).
import { describe, expect, it } from 'vitest';
import { Zip, ZipDeflate, Zlib, zipSync } from 'fflate';
import { decodePng, crc32 } from '../../../src/main/io/png';
import { readSceneNpz } from '../../../src/main/io/npz';
import { parsePly } from '../../../src/shared/authoring/import/ply';

const LIMIT_BYTES = 300 * 1024 * 1024;

/** Runs `decode`, expects it to throw `pattern`, and returns the peak RSS growth in bytes. */
function refusedWithin(decode: () => unknown, pattern: RegExp): number {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  expect(decode).toThrow(pattern);
  const peak = process.resourceUsage().maxRSS * 1024;
  return Math.max(0, peak - before);
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.from(type, 'latin1'), data), 0);
  return Buffer.concat([head, data, crc]);
}

function png(width: number, height: number, colorType: number, depth: number, idat: Uint8Array): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = depth;
  ihdr[9] = colorType;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}

const MIB = new Uint8Array(1024 * 1024);

/** `mib` MiB of zeros as one zlib stream, fed 1 MiB at a time so making it costs no memory. */
function zerosZlib(mib: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const z = new Zlib({ level: 9 }, (data) => parts.push(data));
  for (let i = 0; i < mib; i++) z.push(MIB, i === mib - 1);
  return Buffer.concat(parts);
}

/** A zip holding `name` as `mib` MiB of deflated zeros, streamed the same way. */
function zerosZip(name: string, mib: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    parts.push(data);
  });
  const member = new ZipDeflate(name, { level: 9 });
  zip.add(member);
  for (let i = 0; i < mib; i++) member.push(MIB, i === mib - 1);
  zip.end();
  return Buffer.concat(parts);
}

describe('decompression bombs are refused in bounded memory', () => {
  const zeros = zerosZlib(256);

  it('PNG declaring 100000 x 100000 RGBA 16-bit', () => {
    const grown = refusedWithin(() => decodePng(png(100_000, 100_000, 6, 16, zeros)), /over the limit/);
    expect(grown).toBeLessThan(LIMIT_BYTES);
  });

  it('PNG whose image data inflates far past its header (256 MiB into 64 x 64)', () => {
    const bomb = png(64, 64, 0, 8, zeros);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const grown = refusedWithin(() => decodePng(bomb), /inflates past/);
    expect(grown).toBeLessThan(LIMIT_BYTES);
  });

  it('NPZ whose member declares 3.75 GiB', () => {
    const zip = Buffer.from(zipSync({ 'positions.npy': new Uint8Array(128) }, { level: 0 }));
    // Patch the uncompressed size in the local header (offset 22) and the central directory (+24).
    zip.writeUInt32LE(0xf0000000, 22);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(0xf0000000, central + 24);
    const grown = refusedWithin(() => readSceneNpz(zip), /over the limit/);
    expect(grown).toBeLessThan(LIMIT_BYTES);
  });

  it('NPZ with a deflated 256 MiB member (about 250 KB on disk)', () => {
    const bomb = zerosZip('positions.npy', 256);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const grown = refusedWithin(() => readSceneNpz(bomb), /over the limit/);
    expect(grown).toBeLessThan(LIMIT_BYTES);
  });

  it('PLY declaring a billion vertices (binary and ASCII)', () => {
    const props = ['x', 'y', 'z', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity'].map((p) => `property float ${p}`).join('\n');
    for (const format of ['binary_little_endian', 'ascii']) {
      for (const count of [1_000_000_000, 3_000_000]) {
        const ply = new TextEncoder().encode(`ply\nformat ${format} 1.0\nelement vertex ${count}\n${props}\nend_header\n${format === 'ascii' ? '0 '.repeat(140) : ''}`);
        const grown = refusedWithin(() => parsePly(ply), /over the limit|truncated/);
        expect(grown).toBeLessThan(LIMIT_BYTES);
      }
    }
  });
});
