// The seed-style peer of `npm run bench -- raster --peer torch`: the same scene and camera on the
// lab's tile rasterizer (one thread) and on test/bench/seed_dense_rasterizer.py, the port of the
// SplatBench seed's dense PyTorch rasterizer, run by a python3 that has torch (Debian's
// python3-torch; optional). Output: markdown lines (times, ratio, image agreement) or one line
// saying why the peer did not run. Invariant: the images are checked before the ratio is printed
// (max abs RGB difference at most 1e-3: the port is float32 and has no 1e-4 transmittance stop).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { rasterizeForwardDense, viewColors } from '../../src/shared/raster/cpu';
import { rasterizeTiles } from '../../src/shared/raster/cpu/tiles';
import type { Camera } from '../../src/shared/raster/types';
import type { Splats } from '../../src/shared/scene/splats';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'seed_dense_rasterizer.py');
/** Largest RGB difference at which the two images count as the same render. */
export const AGREE = 1e-3;

/** The first python3 on the list that imports torch (SPLATLAB_PYTHON first, then PATH's, then Debian's). */
function torchPython(): string | null {
  const candidates = [process.env.SPLATLAB_PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => !!p);
  for (const py of candidates) {
    const r = spawnSync(py, ['-c', 'import torch'], { encoding: 'utf8' });
    if (r.status === 0) return py;
  }
  return null;
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** `reps` timed renders of ours, `peerReps` of the peer (each after one warm-up). */
export function torchPeer(splats: Splats, camera: Camera, reps: number, peerReps: number): string[] {
  const py = torchPython();
  if (!py) return ['Seed peer (PyTorch dense rasterizer): not run, no python3 with torch here (try `apt-get install python3-torch`, or set SPLATLAB_PYTHON).'];
  const ours: number[] = [];
  const cpu: number[] = [];
  let tile = rasterizeTiles(splats, camera);
  for (let i = 0; i < reps; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    tile = rasterizeTiles(splats, camera);
    ours.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const dir = mkdtempSync(join(tmpdir(), 'splatlab-torch-peer-'));
  try {
    const out = join(dir, 'rgb.f32');
    const job = {
      means: Array.from(splats.means),
      scales: Array.from(splats.scales),
      quats: Array.from(splats.quats),
      opacities: Array.from(splats.opacities),
      colors: Array.from(viewColors(splats, camera)),
      camera,
      reps: peerReps + 1,
      out,
    };
    const r = spawnSync(py, [SCRIPT], { input: JSON.stringify(job), encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) return [`Seed peer (PyTorch dense rasterizer): failed (${py}): ${r.stderr.trim().split('\n').pop() ?? `status ${r.status}`}`];
    const info = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { ms: number[]; cpu: number[]; threads: number; torch: string };
    const bytes = readFileSync(out);
    const theirs = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    const dense = rasterizeForwardDense(splats, camera);
    const diff = maxDiff(tile.rgb, theirs);
    const exact = maxDiff(tile.rgb, dense.rgb);
    const torchMs = median(info.ms.slice(1));
    const oursMs = median(ours);
    const agree = diff <= AGREE;
    return [
      `| renderer | threads | median ms (wall) | CPU ms |`,
      `|---|---|---|---|`,
      `| lab tile rasterizer (rasterizeTiles) | 1 | ${oursMs.toFixed(1)} | ${median(cpu).toFixed(1)} |`,
      `| seed-style dense PyTorch port (torch ${info.torch}, ${py}) | ${info.threads} | ${torchMs.toFixed(0)} | ${median(info.cpu.slice(1)).toFixed(0)} |`,
      '',
      `Images: max abs RGB difference tile vs PyTorch port ${diff.toExponential(2)} (${agree ? 'agree' : 'DISAGREE'}: limit ${AGREE}); tile vs the float64 dense definition ${exact.toExponential(2)}.`,
      agree ? `**Ratio: the tile rasterizer is ${(torchMs / oursMs).toFixed(0)}x faster than the seed-style PyTorch renderer** (medians of ${reps} and ${peerReps} renders, each after one warm-up; CPU ms ratio ${(median(info.cpu.slice(1)) / median(cpu)).toFixed(0)}x).` : 'No ratio: the images disagree, so the two do not render the same thing.',
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
