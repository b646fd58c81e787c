// Two ways into readSplatFile that the oracle round trips do not take: a SOG scene opened by its
// folder (not its meta.json), and an INRIA .ply with an ASCII body (read whole, row by row),
// and the refusal of a short ASCII body (docs/MUTATION.md, formats survivors).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSplatFile } from '../../../src/main/formats/read';
import { oracleWrite, randomColumns } from './oracle';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-open-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROPS = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];

function asciiPly(declared: number, rows: number[][]): string {
  const head = ['ply', 'format ascii 1.0', `element vertex ${declared}`, ...PROPS.map((p) => `property float ${p}`), 'end_header'];
  return `${[...head, ...rows.map((r) => r.join(' '))].join('\n')}\n`;
}

describe('readSplatFile entry paths', () => {
  it('opens a SOG folder as its meta.json', async () => {
    const meta = await oracleWrite('sog', randomColumns(40, 1, 3), join(dir, 'sog'));
    const byMeta = await readSplatFile(meta);
    const byFolder = await readSplatFile(dirname(meta));
    expect(byFolder.splats.count).toBe(40);
    expect(byFolder.shDegree).toBe(1);
    expect(Array.from(byFolder.splats.means)).toEqual(Array.from(byMeta.splats.means));
    expect(Array.from(byFolder.splats.colors)).toEqual(Array.from(byMeta.splats.colors));
  });

  it('reads an ASCII INRIA .ply row by row', async () => {
    const path = join(dir, 'two.ply');
    writeFileSync(path, asciiPly(2, [
      [1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
      [-1, 0.5, 4, 0, 0, 0, 0, Math.log(2), 0, 0, 0, 1, 0, 0],
    ]));
    const f = await readSplatFile(path);
    expect(f.splats.count).toBe(2);
    expect(Array.from(f.splats.means)).toEqual([1, 2, 3, -1, 0.5, 4]);
    expect(f.splats.opacities[0]).toBeCloseTo(0.5, 6);
    expect(f.splats.scales[3]).toBeCloseTo(2, 6);
    expect(Array.from(f.splats.quats)).toEqual([1, 0, 0, 0, 0, 1, 0, 0]);
  });

  it('refuses an ASCII body with fewer rows than declared', async () => {
    const path = join(dir, 'short.ply');
    writeFileSync(path, asciiPly(3, [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]]));
    await expect(readSplatFile(path)).rejects.toThrow(/truncated ASCII body: ran out of values in element 'vertex' row 2/);
  });
});
