// Bombs of the splat formats (#12 readers, #18 "bomb files of each format are refused with memory
// under 300 MB, measured in the test"): a gzip SPZ whose stream inflates far past its header, a
// compressed .ply and an INRIA .ply declaring more rows than any scene, a SOG texture declaring a
// huge canvas, a .sog bundle member that inflates past the zip member limit, and a (sparse) .splat file over the
// row limit. Each is generated here, read with readSplatFile, refused with one line, and the
// peak resident set grows by less than 300 MB (process.resourceUsage().maxRSS against the RSS
// before the read).
import { mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gzip, Zip, ZipDeflate } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { readSplatFile } from '../../../src/main/formats/read';

const LIMIT_BYTES = 300 * 1024 * 1024;
const MIB = new Uint8Array(1024 * 1024);
const dir = mkdtempSync(join(tmpdir(), 'splatlab-format-bombs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Reads `path`, expects a refusal matching `pattern`, and returns the peak RSS growth in bytes. */
async function refusedWithin(path: string, pattern: RegExp): Promise<number> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  await expect(readSplatFile(path)).rejects.toThrow(pattern);
  return Math.max(0, process.resourceUsage().maxRSS * 1024 - before);
}

/** `head` followed by `mib` MiB of zeros as one gzip stream, fed 1 MiB at a time. */
function gzipBomb(head: Uint8Array, mib: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const g = new Gzip({ level: 9 }, (data) => parts.push(data));
  g.push(head);
  for (let i = 0; i < mib; i++) g.push(MIB, i === mib - 1);
  return Buffer.concat(parts);
}

function spzHeader(version: number, count: number): Uint8Array {
  const h = new Uint8Array(16);
  const v = new DataView(h.buffer);
  v.setUint32(0, 0x5053474e, true);
  v.setUint32(4, version, true);
  v.setUint32(8, count, true);
  v.setUint8(13, 12);
  return h;
}

describe('splat-format bombs are refused in bounded memory', () => {
  it('SPZ v3 declaring 10 Gaussians whose gzip stream inflates to 400 MiB', async () => {
    const bomb = gzipBomb(spzHeader(3, 10), 400);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const path = join(dir, 'bomb.spz');
    writeFileSync(path, bomb);
    expect(await refusedWithin(path, /Niantic SPZ: inflates past the \d+ bytes its header declares \(10 Gaussians\): refused/)).toBeLessThan(LIMIT_BYTES);
  });

  it('compressed and INRIA .ply declaring 4 billion rows', async () => {
    const compressed = join(dir, 'huge.compressed.ply');
    writeFileSync(compressed, 'ply\nformat binary_little_endian 1.0\nelement chunk 4000000000\nproperty float min_x\nelement vertex 4000000000\nproperty uint packed_position\nend_header\n');
    expect(await refusedWithin(compressed, /declares 4000000000 rows, over the limit/)).toBeLessThan(LIMIT_BYTES);
    const inria = join(dir, 'huge.ply');
    writeFileSync(inria, 'ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty float x\nproperty float y\nproperty float z\nend_header\n');
    expect(await refusedWithin(inria, /declares 4000000000 rows, over the limit/)).toBeLessThan(LIMIT_BYTES);
  });

  it('SOG texture whose header declares a 16384 x 16384 canvas', async () => {
    const sog = join(dir, 'sog');
    mkdirSync(sog, { recursive: true });
    // RIFF/WEBP with a VP8X chunk: 24-bit canvas width-1 and height-1 (no image data follows).
    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'latin1');
    vp8x.writeUInt32LE(22, 4);
    vp8x.write('WEBPVP8X', 8, 'latin1');
    vp8x.writeUInt32LE(10, 16);
    vp8x.writeUIntLE(16383, 24, 3);
    vp8x.writeUIntLE(16383, 27, 3);
    for (const name of ['means_l.webp', 'means_u.webp', 'quats.webp', 'scales.webp', 'sh0.webp']) writeFileSync(join(sog, name), vp8x);
    const meta = {
      version: 2,
      count: 1000,
      means: { mins: [0, 0, 0], maxs: [1, 1, 1], files: ['means_l.webp', 'means_u.webp'] },
      scales: { codebook: Array(256).fill(0), files: ['scales.webp'] },
      quats: { files: ['quats.webp'] },
      sh0: { codebook: Array(256).fill(0), files: ['sh0.webp'] },
    };
    writeFileSync(join(sog, 'meta.json'), JSON.stringify(meta));
    expect(await refusedWithin(join(sog, 'meta.json'), /WebP means_l\.webp \(16384x16384\) declares 268435456, over the limit of \d+: refused before decoding/)).toBeLessThan(LIMIT_BYTES);
  });

  it('.sog bundle whose meta.json member inflates to 600 MiB', async () => {
    const parts: Uint8Array[] = [];
    const zip = new Zip((err, data) => {
      if (err) throw err;
      parts.push(data);
    });
    const member = new ZipDeflate('meta.json', { level: 9 });
    zip.add(member);
    for (let i = 0; i < 600; i++) member.push(MIB, i === 599);
    zip.end();
    const path = join(dir, 'bomb.sog');
    writeFileSync(path, Buffer.concat(parts));
    expect(await refusedWithin(path, /zip member meta\.json declares 629145600, over the limit of 536870912: refused before decoding/)).toBeLessThan(LIMIT_BYTES);
  });

  it('.splat file (sparse, 1 GiB) over the row limit', async () => {
    const path = join(dir, 'huge.splat');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 1024 * 1024 * 1024);
    closeSync(fd);
    expect(await refusedWithin(path, /antimatter15 \.splat: declares 33554432 Gaussians, over the limit of 4194304: refused before decoding/)).toBeLessThan(LIMIT_BYTES);
  });
});
