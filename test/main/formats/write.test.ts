// The lab's writers, checked by the independent reader: a scene written as .ply and as SPZ by
// writeSplatFile is read by splat-transform and by readSplatFile and agrees with the scene.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSplatFile } from '../../../src/main/formats/read';
import { writeSplatFile } from '../../../src/main/formats/write';
import { emptySplats, type Splats } from '../../../src/shared/scene/splats';
import { oracleRead, rng, SH_C0 } from './oracle';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function scene(n: number, degree: 0 | 1 | 2 | 3, seed: number): Splats {
  const r = rng(seed);
  const s = emptySplats(n);
  const k = [0, 3, 8, 15][degree];
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      s.means[i * 3 + a] = (r() - 0.5) * 4;
      s.scales[i * 3 + a] = 0.01 + r() * 0.2;
      s.colors[i * 3 + a] = r();
    }
    const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
    const len = Math.hypot(...q);
    q.forEach((v, c) => (s.quats[i * 4 + c] = v / len));
    s.opacities[i] = 0.05 + 0.9 * r();
  }
  if (degree > 0) s.sh = { degree: degree as 1 | 2 | 3, rest: Float32Array.from({ length: n * k * 3 }, () => (r() - 0.5) * 0.6) };
  return s;
}

/** Max |a - b| over every field, through the oracle's raw columns. */
function columnsError(s: Splats, cols: Record<string, Float32Array>): number {
  let worst = 0;
  const d = (a: number, b: number): void => {
    worst = Math.max(worst, Math.abs(a - b));
  };
  const k = s.sh ? [0, 3, 8, 15][s.sh.degree] : 0;
  for (let i = 0; i < s.count; i++) {
    ['x', 'y', 'z'].forEach((c, a) => d(cols[c][i], s.means[i * 3 + a]));
    [0, 1, 2].forEach((a) => d(Math.exp(cols[`scale_${a}`][i]), s.scales[i * 3 + a]));
    [0, 1, 2].forEach((a) => d(0.5 + SH_C0 * cols[`f_dc_${a}`][i], s.colors[i * 3 + a]));
    d(1 / (1 + Math.exp(-cols.opacity[i])), s.opacities[i]);
    const q = [0, 1, 2, 3].map((c) => cols[`rot_${c}`][i]);
    const len = Math.hypot(...q);
    const dot = q.reduce((acc, v, c) => acc + (v / len) * s.quats[i * 4 + c], 0);
    d(Math.abs(dot), 1); // q and -q are the same rotation
    for (let j = 0; j < 3 * k; j++) d(cols[`f_rest_${j}`][i], s.sh?.rest[(i * k + (j % k)) * 3 + Math.floor(j / k)] ?? 0);
  }
  return worst;
}

describe('writers read back by the independent library', () => {
  it('.ply with SH degree 3 and the up axis recorded: float32 exact', async () => {
    const s = scene(500, 3, 1);
    const path = join(dir, 'lab.ply');
    await writeSplatFile(path, s, { format: 'ply', up: '+z' });
    const cols = await oracleRead('ply', { 'lab.ply': new Uint8Array(readFileSync(path)) }, 'lab.ply');
    expect(columnsError(s, cols)).toBeLessThan(1e-5);
    const back = await readSplatFile(path);
    expect(back.frame).toEqual({ convention: 'SplatLab world (Z up)', up: '+z', source: 'file' });
    expect(back.splats.sh?.rest).toEqual(s.sh?.rest);
  });

  it('SPZ v3 with SH degree 2: within its quantisation', async () => {
    const s = scene(400, 2, 2);
    const path = join(dir, 'lab.spz');
    await writeSplatFile(path, s, { format: 'spz', antialiased: true });
    const cols = await oracleRead('spz', { 'lab.spz': new Uint8Array(readFileSync(path)) }, 'lab.spz');
    // 8-bit colours, log scales in 1/16 steps, 9-bit rotation components, 8-bit SH.
    expect(columnsError(s, cols)).toBeLessThan(0.02);
    const back = await readSplatFile(path);
    expect(back.detected).toBe('Niantic SPZ v3 (SH degree 2, antialiased)');
    expect(back.antialiased).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);
  });
});
