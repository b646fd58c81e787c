// Load benchmark (issue #12): a 2M-Gaussian SH degree 3 scene as an INRIA .ply (written by the
// lab), a PlayCanvas compressed .ply (written by splat-transform) and an SPZ v3 (written by the
// lab), each read by readSplatFile in a fresh process: seconds and peak RSS, and peak RSS over
// the file's size (the target is about 2.5x for the .ply). Set BENCH_FORMATS_N for another size.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSplatFile } from '../../src/main/formats/write';
import { emptySplats, type Splats } from '../../src/shared/scene/splats';
import { oracleWrite, type Columns } from '../main/formats/oracle';

const here = dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.BENCH_FORMATS_N ?? 2_000_000);
const dir = mkdtempSync(join(tmpdir(), 'splatlab-bench-formats-'));

function scene(n: number): Splats {
  const s = emptySplats(n);
  let seed = 1;
  const r = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < 3; a++) {
      s.means[i * 3 + a] = (r() - 0.5) * 8;
      s.scales[i * 3 + a] = 0.002 + r() * 0.05;
      s.colors[i * 3 + a] = r();
    }
    s.quats.set([1, 0, 0, 0], i * 4);
    s.opacities[i] = r();
  }
  s.sh = { degree: 3, rest: Float32Array.from({ length: n * 45 }, () => (r() - 0.5) * 0.4) };
  return s;
}

/** The same scene as INRIA columns for splat-transform's compressed writer. */
function columns(s: Splats): Columns {
  const n = s.count;
  const out: Columns = {};
  const col = (name: string, f: (i: number) => number): void => {
    out[name] = Float32Array.from({ length: n }, (_, i) => f(i));
  };
  ['x', 'y', 'z'].forEach((c, a) => col(c, (i) => s.means[i * 3 + a]));
  [0, 1, 2].forEach((a) => col(`scale_${a}`, (i) => Math.log(s.scales[i * 3 + a])));
  [0, 1, 2, 3].forEach((a) => col(`rot_${a}`, (i) => s.quats[i * 4 + a]));
  [0, 1, 2].forEach((a) => col(`f_dc_${a}`, (i) => (s.colors[i * 3 + a] - 0.5) / 0.28209479177387814));
  col('opacity', (i) => Math.log(s.opacities[i] / (1 - s.opacities[i])));
  for (let j = 0; j < 45; j++) col(`f_rest_${j}`, (i) => s.sh?.rest[(i * 15 + (j % 15)) * 3 + Math.floor(j / 15)] ?? 0);
  return out;
}

const s = scene(N);
const files: { label: string; path: string }[] = [];
const ply = join(dir, 'scene.ply');
await writeSplatFile(ply, s, { format: 'ply' });
files.push({ label: 'INRIA .ply (SH 3)', path: ply });
const spz = join(dir, 'scene.spz');
await writeSplatFile(spz, s, { format: 'spz' });
files.push({ label: 'SPZ v3 (SH 3)', path: spz });
files.push({ label: 'compressed .ply (SH 3)', path: await oracleWrite('compressed-ply', columns(s), dir) });

process.stdout.write(`${N} Gaussians, SH degree 3; each file read in a fresh Node process.\n\n`);
process.stdout.write('| file | size (MB) | read (s) | peak RSS (MB) | peak RSS / file size |\n|---|---:|---:|---:|---:|\n');
for (const f of files) {
  const bytes = statSync(f.path).size;
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(here, 'formats-read.ts'), f.path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`${f.label}: ${child.stderr}`);
  const r = JSON.parse(child.stdout.trim().split('\n').pop() as string) as { seconds: number; peakRssBytes: number; count: number };
  if (r.count !== N) throw new Error(`${f.label}: read ${r.count} Gaussians, wrote ${N}`);
  process.stdout.write(`| ${f.label} | ${(bytes / 1e6).toFixed(0)} | ${r.seconds.toFixed(2)} | ${(r.peakRssBytes / 1e6).toFixed(0)} | ${(r.peakRssBytes / bytes).toFixed(2)} |\n`);
}
rmSync(dir, { recursive: true, force: true });
