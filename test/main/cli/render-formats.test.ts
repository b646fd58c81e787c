// `splatlab render --scene FILE` on a generated file of every format the lab reads: the PNG it
// writes equals the renderer called directly on the Gaussians readSplatFile decodes (SH degree 3
// kept), and the multi-view, --up and --timings options do what they say.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OutputFormat } from '@playcanvas/splat-transform';
import { readSplatFile } from '../../../src/main/formats/read';
import { writeSplatFile } from '../../../src/main/formats/write';
import { readPngRgb } from '../../../src/main/io/png';
import { cameraFromFile } from '../../../src/shared/camera/spec';
import { placeSplats } from '../../../src/shared/formats/placement';
import { rasterizeForward } from '../../../src/shared/raster/cpu';
import type { Camera, RenderOutput } from '../../../src/shared/raster/types';
import { oracleWrite, randomColumns } from '../formats/oracle';
import { runCli } from './run';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-render-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let serial = 0;
const fresh = (): string => join(dir, String(serial++));
const orbit = { azimuth: 30, elevation: 20, distance: 12, width: 40, height: 32 };
const cameraPath = join(dir, 'camera.json');
writeFileSync(cameraPath, JSON.stringify(orbit));

function camera(spec: unknown): Camera {
  const c = cameraFromFile(spec);
  if (!c.ok) throw new Error(c.error);
  return c.camera;
}

/** Largest |PNG - clamp(direct render)| over every channel (the PNG holds 8 bits). */
function worst(png: string, ref: RenderOutput): number {
  const data = readPngRgb(png).data;
  expect(data.length).toBe(ref.rgb.length);
  let w = 0;
  for (let i = 0; i < data.length; i++) w = Math.max(w, Math.abs(data[i] - Math.min(1, Math.max(0, ref.rgb[i]))));
  return w;
}

/** Channels where two renders differ by more than one 8-bit step. */
function differing(a: RenderOutput, b: RenderOutput): number {
  let n = 0;
  for (let i = 0; i < a.rgb.length; i++) if (Math.abs(a.rgb[i] - b.rgb[i]) > 1 / 255) n++;
  return n;
}

const FORMATS: { out: OutputFormat; format: string; degree: number }[] = [
  { out: 'ply', format: 'inria-ply', degree: 3 },
  { out: 'compressed-ply', format: 'compressed-ply', degree: 3 },
  { out: 'spz', format: 'spz', degree: 3 },
  { out: 'sog', format: 'sog', degree: 3 },
  { out: 'sog-bundle', format: 'sog', degree: 3 },
  { out: 'splat', format: 'splat', degree: 0 },
];

describe('splatlab render --scene FILE of every format', () => {
  for (const f of FORMATS) {
    it(`${f.out}: the image of the renderer on the decoded Gaussians (SH degree ${f.degree})`, async () => {
      const path = await oracleWrite(f.out, randomColumns(300, f.degree, 40 + serial), fresh());
      const out = join(dir, `${f.out}.png`);
      const run = await runCli('render', ['--scene', path, '--camera', cameraPath, '--out', out, '--device', 'cpu']);
      expect(run.code, run.err.join('\n')).toBe(0);
      expect(run.out.join('\n')).toMatch(/Rendered 300 Gaussians at 40x32 on the CPU reference rasterizer/);
      const file = await readSplatFile(path);
      expect(file.format).toBe(f.format);
      expect(file.splats.sh?.degree ?? 0).toBe(f.degree);
      if (f.degree > 0) expect(run.err.join('\n')).toContain(`SH degree ${f.degree} kept`);
      const ref = rasterizeForward(file.splats, camera(orbit), { antialiased: file.antialiased });
      expect(worst(out, ref)).toBeLessThanOrEqual(0.5 / 255 + 1e-6);
      if (f.degree > 0) {
        // The bands matter in this view: dropping them changes the image, so "kept" is seen.
        const flat = rasterizeForward({ ...file.splats, sh: undefined }, camera(orbit));
        expect(differing(ref, flat)).toBeGreaterThan(20);
      }
    });
  }

  it('several cameras in one call (repeated --camera and a JSON array) write one PNG each', async () => {
    const path = join(dir, 'lab-written.spz');
    const file0 = await oracleWrite('ply', randomColumns(200, 3, 5), fresh());
    await writeSplatFile(path, (await readSplatFile(file0)).splats, { format: 'spz' });
    const list = join(dir, 'list.json');
    const second = { ...orbit, azimuth: 120 };
    const third = { ...orbit, azimuth: 250, elevation: -10 };
    writeFileSync(list, JSON.stringify([second, third]));
    const run = await runCli('render', ['--scene', path, '--camera', cameraPath, '--camera', list, '--out', join(dir, 'multi.png'), '--device', 'cpu']);
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(run.out.join('\n')).toContain('in 3 views');
    const splats = (await readSplatFile(path)).splats;
    [orbit, second, third].forEach((spec, i) => {
      expect(worst(join(dir, `multi-${i}.png`), rasterizeForward(splats, camera(spec)))).toBeLessThanOrEqual(0.5 / 255 + 1e-6);
    });
  });

  it("--up turns the file's axis to +z (rotation only); without it the file's own frame", async () => {
    const path = await oracleWrite('ply', randomColumns(300, 3, 9), fresh());
    const splats = (await readSplatFile(path)).splats;
    const up = join(dir, 'up.png');
    const run = await runCli('render', ['--scene', path, '--camera', cameraPath, '--out', up, '--device', 'cpu', '--up', '-y']);
    expect(run.code, run.err.join('\n')).toBe(0);
    expect(run.err.join('\n')).toContain("the file's -y becomes the lab's +Z");
    const turned = placeSplats(splats, { up: '-y', recentre: 'none', scale: 'metric' }).splats;
    expect(worst(up, rasterizeForward(turned, camera(orbit)))).toBeLessThanOrEqual(0.5 / 255 + 1e-6);
    expect(differing(rasterizeForward(turned, camera(orbit)), rasterizeForward(splats, camera(orbit)))).toBeGreaterThan(20);
    const bad = await runCli('render', ['--scene', path, '--camera', cameraPath, '--out', up, '--up', 'sideways']);
    expect(bad.code).toBe(1);
    expect(bad.err[0]).toMatch(/^--up must be one of/);
  });

  it('--timings prints project, sort, bin and composite of the tile rasterizer, whose image it is', async () => {
    const path = await oracleWrite('spz', randomColumns(5000, 3, 11), fresh());
    const out = join(dir, 'timed.png');
    const run = await runCli('render', ['--scene', path, '--camera', cameraPath, '--out', out, '--device', 'cpu', '--timings']);
    expect(run.code, run.err.join('\n')).toBe(0);
    const text = run.out.join('\n');
    expect(text).toMatch(/on the CPU tile rasterizer/);
    expect(text).toMatch(/^timings: project [\d.]+ ms, sort [\d.]+ ms, bin [\d.]+ ms, composite [\d.]+ ms \(total [\d.]+ ms; \d+ threads?, \d+ visible, \d+ tile intersections\)$/m);
    const file = await readSplatFile(path);
    expect(worst(out, rasterizeForward(file.splats, camera(orbit)))).toBeLessThanOrEqual(0.5 / 255 + 1e-6);
  });

  it('a file that is not a scene says so in one line', async () => {
    const bad = join(dir, 'bad.spz');
    writeFileSync(bad, 'not a splat');
    const run = await runCli('render', ['--scene', bad, '--camera', cameraPath, '--out', join(dir, 'x.png')]);
    expect(run.code).toBe(1);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(/bad\.spz: .*SPZ/);
  });
});
