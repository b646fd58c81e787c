// `splatlab import splat`: any format in, the up axis and placement said line by line, SH kept in
// a .ply out, and bad options refused in one line.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { command } from '../../../src/main/cli/commands/import';
import { readSplatFile } from '../../../src/main/formats/read';
import { oracleWrite, randomColumns } from './oracle';

async function run(argv: string[]): Promise<{ out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  await command.run(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { out, err };
}

describe('splatlab import splat', () => {
  it('turns an SPZ with +y up to Z up, keeps SH in the .ply it writes, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'splatlab-cli-import-'));
    const cols = randomColumns(200, 2, 5);
    const spz = await oracleWrite('spz', cols, dir, { spzVersion: 3 });
    const out = join(dir, 'placed.ply');
    const r = await run(['splat', spz, '--out', out, '--up', '+y', '--crop-sphere', '0,0,0,2.5']);
    expect(r.out).toEqual([expect.stringMatching(new RegExp(`^wrote \\d+ Gaussians to ${out}$`))]);
    expect(r.err).toContain('note: read 200 Gaussians: Niantic SPZ v3 (SH degree 2)');
    expect(r.err).toContain('note: up axis +y (chosen)');
    expect(r.err.some((l) => /^note: cropped to the sphere at \(0\.000, 0\.000, 0\.000\) radius 2\.5: dropped \d+ Gaussian\(s\)$/.test(l))).toBe(true);
    expect(r.err).toContain('reading: 100%');
    const back = await readSplatFile(out);
    const src = await readSplatFile(spz);
    expect(back.frame.up).toBe('+z');
    expect(back.shDegree).toBe(2);
    // +y up -> +90 deg about X: (x, y, z) -> (x, -z, y); the first kept Gaussian inside the crop.
    const i = Array.from({ length: 200 }, (_, k) => k).find((k) => Math.hypot(src.splats.means[k * 3], src.splats.means[k * 3 + 1], src.splats.means[k * 3 + 2]) <= 2.5) as number;
    expect(back.splats.means[0]).toBeCloseTo(src.splats.means[i * 3], 4);
    expect(back.splats.means[1]).toBeCloseTo(-src.splats.means[i * 3 + 2], 4);
    expect(back.splats.means[2]).toBeCloseTo(src.splats.means[i * 3 + 1], 4);
    await expect(run(['splat', spz, '--out', join(dir, 'x.obj')])).rejects.toThrow(/--out must end in \.json \(scene file\), \.ply or \.spz/);
    await expect(run(['splat', spz, '--out', out, '--up', 'north'])).rejects.toThrow(/--up must be one of auto, \+x, -x, \+y, -y, \+z, -z \(got 'north'\)/);
  });
});
