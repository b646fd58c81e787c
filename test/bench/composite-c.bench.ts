// Compositing against its C port (issue 40 item 4, docs/PERFORMANCE.md): the synthetic room
// (src/main/raster/room-scene.ts, default 1.5M SH-3 Gaussians at 512x512) projected, sorted and
// binned once by the tile rasterizer; then the same tile lists and projected rows composited by
// the lab's fast path (the wasm kernel of src/shared/raster/cpu/composite-kernel.ts through
// prepareComposite: the copy of the frame into the module's memory, then the kernel), by
// compositeTileRange (the JS reference and fallback) and by test/bench/composite.c (the kernel's
// line-for-line port, its exp included, built here with `cc -O2 -ffp-contract=off`: no fused
// multiply-adds, as wasm and JavaScript have none), in turns within one run so all see the same
// machine load; process CPU ms of each, the ratio C over each (1 means as fast as C; the goal is
// 0.9), whether the wasm image is bit for bit the C one (it must be: the same operations) and how
// far the JS image (Math.exp) is from it. Without a C compiler the C row says so and the bench still passes.
// Run: npm run bench -- composite-c [--gaussians N] [--size PX] [--degree D] [--rounds R]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allocTileFrame, binTilesInOrder, compositeTileRange, depthOrderOfFrame, packTileCamera, projectTileRange, tileInput, type TileBins, type TileFrame } from '../../src/shared/raster/cpu/tiles';
import { prepareComposite } from '../../src/shared/raster/cpu/composite-wasm';
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
const jsRgb = new Float32Array(npix * 3);
const jsAlpha = new Float32Array(npix);
const jsComposite = (): number => {
  const c0 = cpuNow();
  compositeTileRange(f, bins, 0, tiles, jsRgb, jsAlpha);
  return cpuNow() - c0;
};
/** The fast path as the lab runs it: [copy into the module's memory, kernel] CPU ms. */
const wasmComposite = (): [number, number] => {
  const c0 = cpuNow();
  const run = prepareComposite(f, bins);
  const c1 = cpuNow();
  if (!run) throw new Error('composite-c: the wasm kernel does not run here (no WebAssembly, or the frame is too large)');
  run(0, tiles, rgb, alpha);
  return [c1 - c0, cpuNow() - c1];
};
jsComposite(); // warm-up: the JIT compiles the loop
wasmComposite(); // warm-up: the module compiled (Liftoff, then TurboFan) and its memory grown

const dir = mkdtempSync(join(tmpdir(), 'splatlab-bench-composite-'));
try {
  const c = buildC(dir);
  const inPath = join(dir, 'frame.bin');
  const outPath = join(dir, 'image.bin');
  if ('exe' in c) writeFileSync(inPath, dump(f, bins));
  const ts: number[] = [];
  const copyMs: number[] = [];
  const kernelMs: number[] = [];
  const cMs: number[] = [];
  let identical: boolean | null = null;
  let differing = 0;
  let jsDiff = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const [copy, kernel] = wasmComposite();
    copyMs.push(copy);
    kernelMs.push(kernel);
    ts.push(jsComposite());
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
    jsDiff = 0;
    for (let i = 0; i < npix * 3; i++) jsDiff = Math.max(jsDiff, Math.abs(jsRgb[i] - img[i]));
    for (let i = 0; i < npix; i++) jsDiff = Math.max(jsDiff, Math.abs(jsAlpha[i] - img[npix * 3 + i]));
  }
  console.log(`Synthetic room, ${N} Gaussians, SH ${DEGREE}, ${SIZE}x${SIZE}: ${bins.order.length} visible, ${bins.ids.length} tile intersections; ${ROUNDS} rounds, wasm then JS then C in each; load average ${load()}\n`);
  console.log('| compositing, one thread | median CPU ms | min CPU ms | C / this (goal at least 0.90) | image |');
  console.log('|---|---:|---:|---:|---|');
  const med = { copy: median(copyMs), kernel: median(kernelMs), wasm: median(copyMs.map((c, i) => c + kernelMs[i])), js: median(ts) };
  const cMed = 'exe' in c ? median(cMs) : NaN;
  const ratio = (ms: number): string => ('exe' in c ? (cMed / ms).toFixed(2) : '');
  const wasmImage = identical === null ? '' : identical ? 'bit for bit the C image' : `${differing} of ${npix * 4} floats differ from the C image`;
  console.log(`| lab: copy into wasm memory + kernel (src/shared/raster/cpu/composite-wasm.ts) | ${med.wasm.toFixed(1)} | ${Math.min(...copyMs.map((x, i) => x + kernelMs[i])).toFixed(1)} | ${ratio(med.wasm)} | ${wasmImage} |`);
  console.log(`| the wasm kernel alone (composite-kernel.ts) | ${med.kernel.toFixed(1)} | ${Math.min(...kernelMs).toFixed(1)} | ${ratio(med.kernel)} | |`);
  console.log(`| the copy alone | ${med.copy.toFixed(1)} | ${Math.min(...copyMs).toFixed(1)} | | |`);
  console.log(`| JS reference, compositeTileRange (tiles.ts, Math.exp) | ${med.js.toFixed(1)} | ${Math.min(...ts).toFixed(1)} | ${ratio(med.js)} | ${'exe' in c ? `at most ${jsDiff.toExponential(1)} from the C image` : ''} |`);
  if ('exe' in c) {
    console.log(`| C port, test/bench/composite.c (cc -O2 -ffp-contract=off) | ${cMed.toFixed(1)} | ${Math.min(...cMs).toFixed(1)} | 1.00 | |`);
    if (!identical) process.exitCode = 1;
  } else {
    console.log(`| C port, test/bench/composite.c | skipped: ${c.skipped} | | | |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
