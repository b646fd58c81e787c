// Bombs under the limits (issue 29 item 8): the two files that used to be inflated before they
// were refused, now refused from their headers and directories with the peak resident set
// growing by less than 300 MB (process.resourceUsage().maxRSS, worker threads included): a
// ~0.5 MB .sog whose texture member declares 500 MiB, and a ~0.3 MB SPZ declaring 4M SH3
// Gaussians. Both are read the way the debugger reads uploads (splatReader: a 'format.read' job
// on a thread of its own with resource limits), and while a large real file decodes there,
// another client's calls on the event loop go on (counted in loop turns, no clocks).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, crc32, createDeflateRaw, createGzip, gzipSync, type Gzip, type DeflateRaw } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeSpzV3 } from '../../../src/shared/formats/spz';
import { WorkerPool } from '../../../src/main/workers/pool';
import { splatReader } from '../../../src/main/workers/read-splat';
import { shColumn } from '../../helpers/sh-scene';

const LIMIT_BYTES = 300 * 1024 * 1024;
const MIB = new Uint8Array(1024 * 1024);
const dir = mkdtempSync(join(tmpdir(), 'splatlab-bomb-budgets-'));
const pool = new WorkerPool({ size: 1, splitSize: 2 });
const read = splatReader(pool, 'uploader');
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Reads `path` through the worker, expects a refusal matching `pattern`, returns the peak RSS growth. */
async function refusedWithin(path: string, pattern: RegExp): Promise<number> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  await expect(read(path, { memoryBudgetBytes: 32 * 1024 * 1024 * 1024 })).rejects.toThrow(pattern);
  return Math.max(0, process.resourceUsage().maxRSS * 1024 - before);
}

/** `head` then `mib` MiB of zeros through a zlib stream, fed 1 MiB at a time (the test itself stays small). */
async function squeeze(stream: Gzip | DeflateRaw, head: Uint8Array, mib: number): Promise<Buffer> {
  const out: Buffer[] = [];
  stream.on('data', (d: Buffer) => out.push(d));
  const ended = new Promise((r) => stream.once('end', r));
  const write = (b: Uint8Array): Promise<void> => new Promise((r) => (stream.write(b) ? r() : stream.once('drain', () => r())));
  await write(head);
  for (let i = 0; i < mib; i++) await write(MIB);
  stream.end();
  await ended;
  return Buffer.concat(out);
}

/** A zip of stored and deflated members, written by hand (local headers, central directory, end record). */
function zipOf(members: { name: string; data: Buffer; size: number; crc: number; method: 0 | 8 }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const name = Buffer.from(m.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(m.method, 8);
    local.writeUInt32LE(m.crc, 14);
    local.writeUInt32LE(m.data.length, 18);
    local.writeUInt32LE(m.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(m.method, 10);
    central.writeUInt32LE(m.crc, 16);
    central.writeUInt32LE(m.data.length, 20);
    central.writeUInt32LE(m.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, m.data);
    centrals.push(central, name);
    offset += 30 + name.length + m.data.length;
  }
  const dirBytes = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dirBytes, end]);
}

function spzHeader(count: number, degree: number): Uint8Array {
  const h = new Uint8Array(16);
  const v = new DataView(h.buffer);
  v.setUint32(0, 0x5053474e, true);
  v.setUint32(4, 3, true);
  v.setUint32(8, count, true);
  v.setUint8(12, degree);
  v.setUint8(13, 12);
  return h;
}

describe('bombs under the limits are refused before inflating', () => {
  it('a .sog whose texture member declares 500 MiB (the meta needs a few KiB)', async () => {
    const meta = Buffer.from(JSON.stringify({
      version: 2,
      count: 1000,
      means: { mins: [0, 0, 0], maxs: [1, 1, 1], files: ['means_l.webp', 'means_u.webp'] },
      scales: { codebook: Array(256).fill(0), files: ['scales.webp'] },
      quats: { files: ['quats.webp'] },
      sh0: { codebook: Array(256).fill(0), files: ['sh0.webp'] },
    }));
    let crc = 0;
    for (let i = 0; i < 500; i++) crc = crc32(MIB, crc);
    const big = await squeeze(createDeflateRaw({ level: constants.Z_BEST_COMPRESSION }), new Uint8Array(0), 500);
    const bytes = zipOf([
      { name: 'meta.json', data: meta, size: meta.length, crc: crc32(meta), method: 0 },
      { name: 'means_l.webp', data: big, size: 500 * MIB.length, crc, method: 8 },
    ]);
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const path = join(dir, 'member-bomb.sog');
    writeFileSync(path, bytes);
    expect(await refusedWithin(path, /PlayCanvas SOG v2: member means_l\.webp declares 500\.0 MiB, over the [\d.]+ MiB a texture of 1000 Gaussians can take: refused before inflating/)).toBeLessThan(LIMIT_BYTES);
  });

  it('an SPZ declaring 4M SH3 Gaussians in a fraction of a MiB', async () => {
    const count = 4 * 1024 * 1024;
    // 9 + 1 + 3 + 3 + 4 + 45 bytes a Gaussian: the payload its header declares, all zeros.
    const bytes = await squeeze(createGzip({ level: constants.Z_BEST_COMPRESSION }), spzHeader(count, 3), (count * 65) / MIB.length);
    expect(bytes.length).toBeLessThan(1024 * 1024);
    const path = join(dir, 'count-bomb.spz');
    writeFileSync(path, bytes);
    expect(await refusedWithin(path, /Niantic SPZ: the header \(4194304 Gaussians, SH degree 3\) declares 260\.0 MiB inflated from 0\.\d MiB, over 64 times its size \(a decompression bomb\): refused before inflating/)).toBeLessThan(LIMIT_BYTES);
  });

  it('decodes a real file on a worker while another client is answered on the event loop', async () => {
    const scene = shColumn(400_000, 3, 7);
    const path = join(dir, 'real.spz');
    writeFileSync(path, gzipSync(encodeSpzV3(scene)));
    // Another client: one call per turn of the event loop for as long as the read runs. The
    // turns counted from the end of inflation (the reader's progress) to the decoded scene are
    // the calls answered while the Gaussians were decoded: on this thread none could be (only the
    // file's close, a few turns); on the worker, every turn of the decoding.
    let turns = 0;
    let atInflated = -1;
    let reading = true;
    const other = (async () => {
      while (reading) {
        await new Promise((r) => setImmediate(r));
        turns++;
      }
    })();
    const file = await read(path, { onProgress: (p) => (p.phase === 'inflate' ? (atInflated = turns) : undefined) });
    reading = false;
    await other;
    expect(atInflated).toBeGreaterThanOrEqual(0);
    expect(turns - atInflated).toBeGreaterThan(200);
    expect(file.splats.count).toBe(400_000);
    expect(file.shDegree).toBe(3);
  });

  it('a SOG folder whose meta.json is over the size a meta may have, and the pool serves on', async () => {
    const sog = join(dir, 'fat-sog');
    mkdirSync(sog);
    writeFileSync(join(sog, 'meta.json'), `{"version":2,"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
    await expect(read(join(sog, 'meta.json'))).rejects.toThrow(/meta\.json is 2\.0 MiB, over the 1\.0 MiB a meta may have/);
    expect(await pool.run('probe.echo', { value: 1 } as never, { client: 'other' })).toBeDefined();
  });
});
