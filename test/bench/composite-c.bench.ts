// Compositing against its C port (issue 40 item 4, docs/PERFORMANCE.md): the synthetic room
// (src/main/raster/room-scene.ts, default 1.5M SH-3 Gaussians at 512x512) projected, sorted and
// binned once by the tile rasterizer; then the same tile lists and projected rows composited by
// compositeTileRange (TypeScript) and by test/bench/composite.c (its line-for-line port, built
// here with `cc -O2 -ffp-contract=off`: no fused multiply-adds, as JavaScript has none), in turns
// within one run so both see the same machine load; process CPU ms of each, the ratio (C over
// TypeScript: 1 means as fast as C; the goal is 0.9), and whether the images are bit for bit equal. Without a C compiler the C row says so and the bench still passes.
// Run: npm run bench -- composite-c [--gaussians N] [--size PX] [--degree D] [--rounds R]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allocTileFrame, binTilesInOrder, compositeTileRange, depthOrderOfFrame, packTileCamera, projectTileRange, tileInput, type TileBins, type TileFrame } from '../../src/shared/raster/cpu/tiles';
import { roomCamera, roomScene } from './room-scene';

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = flag('gaussians', 1_500_000);
const SIZE = flag('size', 512);
const DEGREE = flag('degree', 3) as 0 | 1 | 2 | 3;
const ROUNDS = flag('rounds', 5);

const cpuNow = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(', ');

/** The C program's input: header, offsets, ids, then the rows' xy, conic, opacity, qlim, colour, radii. */
function dump(f: TileFrame, bins: TileBins): Buffer {
  let rows = 0;
  for (const g of bins.ids) rows = Math.max(rows, g + 1);
  const head = Uint32Array.from([f.width, f.height, f.tilesX, f.tilesY, rows, bins.ids.length]);
  const parts = [head, bins.offsets, bins.ids, f.xy.subarray(0, rows * 2), f.conic.subarray(0, rows * 3), f.opacity.subarray(0, rows), f.qlim.subarray(0, rows), f.color.subarray(0, rows * 3), f.radii.subarray(0, rows * 2)];
  return Buffer.concat(parts.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)));
}

/** Builds composite.c; null with the reason when no C compiler is here. */
function buildC(dir: string): { exe: string } | { skipped: string } {
  const exe = join(dir, 'composite');
  const cc = process.env.CC ?? 'cc';
  const r = spawnSync(cc, ['-O2', '-ffp-contract=off', '-o', exe, join(here, 'composite.c'), '-lm'], { encoding: 'utf8' });
  if (r.error) return { skipped: `no C compiler (${cc}: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message})` };
  if (r.status !== 0) return { skipped: `${cc} failed: ${r.stderr.trim().split('\n')[0]}` };
  return { exe };
}

const splats = roomScene(N, DEGREE);
const camera = roomCamera(SIZE, 0);
const input = tileInput(splats);
const f = allocTileFrame(input, camera.width, camera.height);
projectTileRange(input, packTileCamera(camera), 0, input.count, f);
const bins = binTilesInOrder(f, depthOrderOfFrame(f));
const tiles = f.tilesX * f.tilesY;
const npix = SIZE * SIZE;
const rgb = new Float32Array(npix * 3);
const alpha = new Float32Array(npix);
const tsComposite = (): number => {
  const c0 = cpuNow();
  compositeTileRange(f, bins, 0, tiles, rgb, alpha);
  return cpuNow() - c0;
};
tsComposite(); // warm-up: the JIT compiles the loop

const dir = mkdtempSync(join(tmpdir(), 'splatlab-bench-composite-'));
try {
  const c = buildC(dir);
  const inPath = join(dir, 'frame.bin');
  const outPath = join(dir, 'image.bin');
  if ('exe' in c) writeFileSync(inPath, dump(f, bins));
  const ts: number[] = [];
  const cMs: number[] = [];
  let identical: boolean | null = null;
  let differing = 0;
  for (let round = 0; round < ROUNDS; round++) {
    ts.push(tsComposite());
    if (!('exe' in c)) continue;
    // Two repetitions in the child, the second timed: the first warms its caches as the TypeScript warm-up does.
    const run = spawnSync(c.exe, [inPath, outPath, '2'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`composite.c: ${run.stderr || `status ${run.status}`}`);
    cMs.push((JSON.parse(run.stdout) as number[])[1]);
    const img = new Float32Array(new Uint8Array(readFileSync(outPath)).buffer);
    const ours = new Float32Array(npix * 4);
    ours.set(rgb);
    ours.set(alpha, npix * 3);
    const a = new Uint32Array(img.buffer);
    const b = new Uint32Array(ours.buffer);
    differing = 0;
    for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) differing++;
    identical = differing === 0;
  }
  console.log(`Synthetic room, ${N} Gaussians, SH ${DEGREE}, ${SIZE}x${SIZE}: ${bins.order.length} visible, ${bins.ids.length} tile intersections; ${ROUNDS} rounds, TypeScript then C in each; load average ${load()}\n`);
  console.log('| compositing, one thread | median CPU ms | min CPU ms | C / this (goal at least 0.90) | image |');
  console.log('|---|---:|---:|---:|---|');
  const tsMed = median(ts);
  if ('exe' in c) {
    const cMed = median(cMs);
    console.log(`| TypeScript, compositeTileRange (src/shared/raster/cpu/tiles.ts) | ${tsMed.toFixed(1)} | ${Math.min(...ts).toFixed(1)} | ${(cMed / tsMed).toFixed(2)} | ${identical ? 'bit for bit the C image' : `${differing} of ${npix * 4} floats differ from the C image`} |`);
    console.log(`| C port, test/bench/composite.c (cc -O2 -ffp-contract=off) | ${cMed.toFixed(1)} | ${Math.min(...cMs).toFixed(1)} | 1.00 | |`);
    if (!identical) process.exitCode = 1;
  } else {
    console.log(`| TypeScript, compositeTileRange (src/shared/raster/cpu/tiles.ts) | ${tsMed.toFixed(1)} | ${Math.min(...ts).toFixed(1)} | | |`);
    console.log(`| C port, test/bench/composite.c | skipped: ${c.skipped} | | | |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
