// Every format, written by an independent library (PlayCanvas splat-transform), read back by
// readSplatFile and compared value by value with the library's own reading of the same bytes
// (and, for the lossless .ply, with the values written). Also the flags each format carries.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSplatFile, type SplatFile } from '../../../src/main/formats/read';
import { oracleRead, oracleWrite, randomColumns, REST_COUNT, SH_C0, type Columns } from './oracle';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;
const fresh = (): string => join(dir, String(serial++));

/** Largest |lab - expected| over every value, with the first offender named. */
function compare(file: SplatFile, cols: Columns, tol: number, rotTol = tol): void {
  const s = file.splats;
  const n = cols.x.length;
  expect(s.count).toBe(n);
  const k = REST_COUNT[file.shDegree] / 3;
  const check = (what: string, i: number, got: number, want: number, t = tol): void => {
    if (!(Math.abs(got - want) <= t * (1 + Math.abs(want)))) throw new Error(`${what} of Gaussian ${i}: lab ${got}, oracle ${want}`);
  };
  const sig = (v: number): number => 1 / (1 + Math.exp(-v));
  for (let i = 0; i < n; i++) {
    ['x', 'y', 'z'].forEach((c, a) => check(c, i, s.means[i * 3 + a], cols[c][i]));
    [0, 1, 2].forEach((a) => check(`scale_${a}`, i, s.scales[i * 3 + a], cols[`scale_${a}`] ? Math.exp(cols[`scale_${a}`][i]) : 0));
    const q = [0, 1, 2, 3].map((c) => cols[`rot_${c}`][i]);
    const len = Math.hypot(...q);
    q.forEach((v, c) => check(`rot_${c}`, i, s.quats[i * 4 + c], v / len, rotTol));
    [0, 1, 2].forEach((c) => check(`colour ${c}`, i, s.colors[i * 3 + c], 0.5 + SH_C0 * cols[`f_dc_${c}`][i]));
    check('opacity', i, s.opacities[i], sig(cols.opacity[i]));
    for (let j = 0; j < 3 * k; j++) check(`f_rest_${j}`, i, s.sh?.rest[(i * k + (j % k)) * 3 + Math.floor(j / k)] ?? NaN, cols[`f_rest_${j}`][i]);
  }
}

/** Every file under the written path's folder, by name, for the oracle's memory file system. */
function filesNear(path: string): Record<string, Uint8Array> {
  const folder = dirname(path);
  return Object.fromEntries(readdirSync(folder).map((f) => [f, new Uint8Array(readFileSync(join(folder, f)))]));
}

describe('INRIA .ply written by splat-transform', () => {
  for (const degree of [0, 1, 2, 3]) {
    it(`degree ${degree}: equals the written values (lossless)`, async () => {
      const cols = randomColumns(300, degree, 10 + degree);
      const path = await oracleWrite('ply', cols, fresh());
      const file = await readSplatFile(path);
      expect(file.format).toBe('inria-ply');
      expect(file.detected).toContain(`SH degree ${degree}`);
      expect(file.shDegree).toBe(degree);
      expect(file.splats.sh?.degree ?? 0).toBe(degree);
      compare(file, cols, 2e-6);
    });
  }

  it('a 2DGS file (no scale_2) reads with a flat third scale, and the mip model is named', async () => {
    // The library drops scale_2 when it writes a 2DGS model; the expected third scale is 0.
    const cols = randomColumns(100, 1, 3);
    const file = await readSplatFile(await oracleWrite('ply', cols, fresh(), {}, '2dgs'));
    const { scale_2: _dropped, ...flat } = cols;
    expect(file.flat2d).toBe(true);
    expect(file.detected).toContain('2DGS');
    compare(file, flat, 2e-6);
    const mip = await readSplatFile(await oracleWrite('ply', randomColumns(50, 0, 4), fresh(), {}, 'antialiased'));
    expect(mip.antialiased).toBe(true);
    expect(mip.detected).toContain('antialiased');
  });
});

describe('compressed formats written by splat-transform agree with its own reading', () => {
  const cases = [
    { name: 'PlayCanvas compressed .ply', out: 'compressed-ply', in: 'ply', format: 'compressed-ply', n: 700, degree: 3 },
    { name: 'SPZ v4 (zstd)', out: 'spz', in: 'spz', format: 'spz', n: 400, degree: 3, options: { spzVersion: 4 }, detected: 'v4' },
    { name: 'SPZ v3 (gzip)', out: 'spz', in: 'spz', format: 'spz', n: 400, degree: 2, options: { spzVersion: 3 }, detected: 'v3' },
    { name: 'SOG v2 folder (meta.json + WebP)', out: 'sog', in: 'sog', format: 'sog', n: 500, degree: 3 },
    { name: 'SOG v2 bundle (.sog zip)', out: 'sog-bundle', in: 'sog', format: 'sog', n: 300, degree: 1 },
    // antimatter15's own decoding of a rotation byte is (b - 128) / 128 (the lab's); the library
    // reads b / 127.5 - 1, half a step apart before normalising, so rotations agree to a few steps.
    { name: 'antimatter15 .splat', out: 'splat', in: 'splat', format: 'splat', n: 256, degree: 0, rotTol: 1 / 24 },
  ] as const;
  for (const c of cases) {
    it(c.name, async () => {
      const cols = randomColumns(c.n, c.degree, c.n + c.degree);
      const path = await oracleWrite(c.out, cols, fresh(), 'options' in c ? c.options : {});
      const file = await readSplatFile(path);
      expect(file.format).toBe(c.format);
      if ('detected' in c) expect(file.detected).toContain(c.detected);
      expect(file.shDegree).toBe(c.degree);
      const theirs = await oracleRead(c.in, filesNear(path), basename(path));
      compare(file, theirs, 1e-5, 'rotTol' in c ? c.rotTol : 1e-5);
    });
  }

  it('the antialiased flag of SPZ and SOG is read', async () => {
    const cols = randomColumns(60, 0, 7);
    expect((await readSplatFile(await oracleWrite('spz', cols, fresh(), {}, 'antialiased'))).antialiased).toBe(true);
    expect((await readSplatFile(await oracleWrite('spz', cols, fresh()))).antialiased).toBe(false);
    expect((await readSplatFile(await oracleWrite('sog', cols, fresh(), {}, 'antialiased'))).antialiased).toBe(true);
  });
});
