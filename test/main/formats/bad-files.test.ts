// Bad and truncated files of every format give one clear line naming the file and the format,
// and declared sizes over the limits or the memory budget are refused before decoding.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readSplatFile } from '../../../src/main/formats/read';
import { oracleWrite, randomColumns } from './oracle';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-badfiles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;
const fresh = (): string => join(dir, String(serial++));

async function refusal(path: string, opts: Parameters<typeof readSplatFile>[1] = {}): Promise<string> {
  try {
    await readSplatFile(path, opts);
  } catch (error) {
    const message = (error as Error).message;
    expect(message.includes('\n'), `one line: ${message}`).toBe(false);
    expect(message.startsWith(`${path}: `)).toBe(true);
    return message;
  }
  throw new Error(`${path} was read, a refusal was expected`);
}

function cut(path: string, keep: number, name = 'cut'): string {
  const out = join(dirname(path), `${name}-${path.split('/').pop()}`);
  const bytes = readFileSync(path);
  writeFileSync(out, bytes.subarray(0, Math.floor(bytes.length * keep)));
  return out;
}

describe('truncated files', () => {
  it('INRIA .ply: the rows it held are named', async () => {
    const path = await oracleWrite('ply', randomColumns(200, 3, 1), fresh());
    expect(await refusal(cut(path, 0.6))).toMatch(/INRIA 3DGS \.ply: truncated: 200 vertex rows need \d+ bytes, the file has \d+ \(\d+ complete rows\)/);
    expect(await refusal(cut(path, 0.001, 'head'))).toMatch(/PLY: truncated PLY header: no end_header line/);
  });

  it('PlayCanvas compressed .ply', async () => {
    const path = await oracleWrite('compressed-ply', randomColumns(600, 3, 2), fresh());
    expect(await refusal(cut(path, 0.7))).toMatch(/PlayCanvas compressed \.ply: truncated: 600 sh rows need/);
  });

  it('SPZ v3 (gzip) and v4 (zstd)', async () => {
    const v3 = await oracleWrite('spz', randomColumns(300, 2, 3), fresh(), { spzVersion: 3 });
    expect(await refusal(cut(v3, 0.5))).toMatch(/Niantic SPZ: the gzip stream is corrupt or truncated/);
    // A whole gzip stream whose payload is short: the header's count does not fit.
    const inflated = gunzipSync(readFileSync(v3));
    const short = join(dirname(v3), 'short.spz');
    writeFileSync(short, gzipSync(inflated.subarray(0, inflated.length - 100)));
    expect(await refusal(short)).toMatch(/Niantic SPZ: truncated: 300 Gaussians need \d+ bytes inflated, the file inflates to \d+/);
    // A gzip stream that inflates past what its header declares is refused as it inflates.
    const long = join(dirname(v3), 'long.spz');
    writeFileSync(long, gzipSync(Buffer.concat([inflated, new Uint8Array(4096)])));
    expect(await refusal(long)).toMatch(/: Niantic SPZ: inflates past the \d+ bytes its header declares \(300 Gaussians\): refused/);
    const v4 = await oracleWrite('spz', randomColumns(300, 3, 4), fresh(), { spzVersion: 4 });
    expect(await refusal(cut(v4, 0.5))).toMatch(/Niantic SPZ: (truncated: v4 stream \d runs past the end of the file|v4 stream \d is corrupt or truncated)/);
  });

  it('SOG v2: a cut texture, a missing texture, a cut bundle', async () => {
    const meta = await oracleWrite('sog', randomColumns(200, 1, 5), fresh());
    const folder = dirname(meta);
    const copy = `${folder}-copy`;
    cpSync(folder, copy, { recursive: true });
    const tex = join(copy, 'quats.webp');
    writeFileSync(tex, readFileSync(tex).subarray(0, 40));
    expect(await refusal(join(copy, 'meta.json'))).toMatch(/WebP quats\.webp: libwebp could not decode it \(corrupt or truncated\)/);
    rmSync(tex);
    expect(await refusal(join(copy, 'meta.json'))).toMatch(/PlayCanvas SOG v2: texture quats\.webp is missing next to meta\.json/);
    const bundle = await oracleWrite('sog-bundle', randomColumns(200, 0, 6), fresh());
    expect(await refusal(cut(bundle, 0.5))).toMatch(/zip: no end-of-central-directory record \(truncated or not a zip file\)/);
  });

  it('.splat: a size that is not whole rows', async () => {
    const path = await oracleWrite('splat', randomColumns(64, 0, 7), fresh());
    expect(await refusal(cut(path, 0.51))).toMatch(/antimatter15 \.splat: \d+ bytes is not a whole number of 32-byte rows/);
  });
});

describe('inconsistent and unknown files', () => {
  const write = (name: string, data: Uint8Array | string): string => {
    const path = join(fresh(), name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
    return path;
  };

  it('headers that contradict themselves', async () => {
    const ply = 'ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n';
    expect(await refusal(write('points.ply', ply))).toMatch(/not a 3D Gaussian Splatting PLY: missing vertex properties f_dc_0.*\(neither the INRIA 3DGS .ply nor the PlayCanvas compressed layout\)/);
    const comp = 'ply\nformat binary_little_endian 1.0\nelement chunk 3\nproperty float min_x\nelement vertex 10\nproperty uint packed_position\nend_header\n';
    expect(await refusal(write('c.ply', comp))).toMatch(/PlayCanvas compressed \.ply: 3 chunks for 10 vertices \(expected 1\)/);
    const spz = new Uint8Array(16);
    new DataView(spz.buffer).setUint32(0, 0x5053474e, true);
    new DataView(spz.buffer).setUint32(4, 9, true);
    expect(await refusal(write('v9.spz', gzipSync(spz)))).toMatch(/Niantic SPZ: version 9 is not supported \(2, 3 or 4\)/);
    expect(await refusal(write('bad.spz', gzipSync(new Uint8Array(32))))).toMatch(/Niantic SPZ: bad magic \(not an SPZ file\)/);
    expect(await refusal(write('meta.json', '{"version": 1, "count": 3}'))).toMatch(/PlayCanvas SOG v2: meta\.json version 1 is not supported \(2\)/);
    expect(await refusal(write('notes.txt', 'hello'))).toMatch(/unrecognised splat file \(supported: /);
    expect(await refusal(write('x.sog', 'hello'))).toMatch(/a \.sog bundle is a zip, and this is not one/);
  });

  it('declared counts over the limit or the memory budget are refused before decoding', async () => {
    const huge = 'ply\nformat binary_little_endian 1.0\nelement vertex 9000000\nproperty float x\nend_header\n';
    expect(await refusal(write('huge.ply', huge))).toMatch(/element 'vertex' declares 9000000 rows, over the limit of 4194304/);
    const path = await oracleWrite('ply', randomColumns(1000, 3, 8), fresh());
    expect(await refusal(path, { memoryBudgetBytes: 100_000 })).toMatch(/INRIA 3DGS \.ply: 1000 Gaussians \(SH degree 3\) need about 0\.2 MiB decoded, over the memory budget of 0\.1 MiB: refused before decoding/);
    const spz = new Uint8Array(16);
    const v = new DataView(spz.buffer);
    v.setUint32(0, 0x5053474e, true);
    v.setUint32(4, 3, true);
    v.setUint32(8, 5_000_000, true);
    expect(await refusal(write('many.spz', gzipSync(spz)))).toMatch(/Niantic SPZ: declares 5000000 Gaussians, over the limit of 4194304: refused before decoding/);
  });

  it('a cancelled read stops with one line', async () => {
    const path = await oracleWrite('ply', randomColumns(100, 0, 9), fresh());
    const ctl = new AbortController();
    ctl.abort();
    expect(await refusal(path, { signal: ctl.signal })).toMatch(/cancelled$/);
  });
});
