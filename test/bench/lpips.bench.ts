// LPIPS (AlexNet v0.1) cost at 256x256 on the CPU: the reference lpips.ts, the wasm SIMD network
// on one thread, and the worker pool on a grade's 8 (render, cached photo features) pairs.
// GMAC/s counts the five convolutions' multiply-adds (0.87 G per image) over the whole pass,
// including the ones the wasm net skips in white regions (images: a noisy disc on white, like a
// render; one all-noise row shows the no-skip worst case).
// Run: node --import tsx test/bench/lpips.bench.ts [--reps N] [--workers N]. Prints a markdown table.
import { availableParallelism, loadavg } from 'node:os';
import { loadLpipsWeights, resolveLpipsDir } from '../../src/main/lpips/weights';
import { LpipsPool } from '../../src/main/lpips/pool';
import type { RgbImage } from '../../src/shared/image/image';
import { lpipsFeatures, lpipsFromFeatures } from '../../src/shared/metrics/lpips';
import { ALEXNET_LAYERS } from '../../src/shared/metrics/lpips-weights';
import { LpipsWasm } from '../../src/shared/metrics/wasm/lpips-wasm';

const SIZE = 256;
const VIEWS = 8;
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const REPS = arg('--reps', 5);
const WORKERS = arg('--workers', 0);

/** A grey disc with noise on white, like a render of an object. */
function image(seed: number): RgbImage {
  let s = seed >>> 0;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) >>> 8) / (1 << 24);
  const data = new Float32Array(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const inside = (x - 128) ** 2 + (y - 128) ** 2 < 80 ** 2;
      for (let c = 0; c < 3; c++) data[(y * SIZE + x) * 3 + c] = inside ? 0.3 + 0.4 * rand() : 1;
    }
  }
  return { width: SIZE, height: SIZE, data };
}

function convMacs(size: number): number {
  let h = size;
  let macs = 0;
  for (const l of ALEXNET_LAYERS) {
    if (l.poolBefore) h = Math.floor((h - 3) / 2) + 1;
    h = Math.floor((h + 2 * l.pad - l.kernel) / l.stride) + 1;
    macs += l.outChannels * l.inChannels * l.kernel * l.kernel * h * h;
  }
  return macs;
}

/** Median wall ms, and mean process CPU ms (all threads) per call: on a busy machine the CPU
 * time still says what the work costs. */
async function median(fn: () => unknown, reps: number): Promise<{ wall: number; cpu: number }> {
  await fn(); // warm-up: JIT, wasm tier-up, worker nets
  const t: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await fn();
    t.push(performance.now() - t0);
  }
  const c = process.cpuUsage(c0);
  return { wall: t.sort((a, b) => a - b)[Math.floor(t.length / 2)], cpu: (c.user + c.system) / 1000 / reps };
}

if (!resolveLpipsDir()) {
  console.log('LPIPS weights not found: nothing to measure (see src/main/lpips/fetch.ts).');
  process.exit(0);
}
const weights = loadLpipsWeights();
const renders = Array.from({ length: VIEWS }, (_, i) => image(100 + i));
const photos = Array.from({ length: VIEWS }, (_, i) => image(200 + i));
const macs = convMacs(SIZE);
const rows: string[] = [];
const row = (what: string, threads: number, ms: { wall: number; cpu: number }, images: number) =>
  rows.push(`| ${what} | ${threads} | ${ms.wall.toFixed(1)} | ${(ms.wall / images).toFixed(1)} | ${((macs * images) / ms.wall / 1e6).toFixed(2)} | ${(ms.cpu / images).toFixed(1)} |`);

const refPhoto = lpipsFeatures(photos[0], weights);
row('reference lpips.ts, features of 1 image', 1, await median(() => lpipsFeatures(renders[0], weights), Math.min(REPS, 3)), 1);

const wasm = new LpipsWasm(weights);
const net = await wasm.net(SIZE, SIZE);
row('wasm SIMD, features of 1 image', 1, await median(() => net.features(renders[0]), REPS), 1);
const noise: RgbImage = { width: SIZE, height: SIZE, data: Float32Array.from({ length: SIZE * SIZE * 3 }, (_, i) => ((i * 2654435761) >>> 0) / 2 ** 32) };
row('wasm SIMD, features of 1 image, no white (nothing skipped)', 1, await median(() => net.features(noise), REPS), 1);
row('wasm SIMD, distance of 1 image (photo cached)', 1, await median(() => net.distance(renders[0], refPhoto), REPS), 1);
const photoFeatures = photos.map((p) => net.features(p));
row(`wasm SIMD, ${VIEWS} distances`, 1, await median(() => renders.map((r, i) => net.distance(r, photoFeatures[i])), REPS), VIEWS);

const pool = LpipsPool.create(weights, WORKERS > 0 ? { workers: WORKERS } : {});
await pool.prepare(SIZE, SIZE);
const pairs = renders.map((render, i) => ({ render, photoFeatures: photoFeatures[i] }));
row(`pool, ${VIEWS} distances`, pool.size, await median(() => pool.distances(pairs), REPS), VIEWS);
const check = (await pool.distances(pairs.slice(0, 1)))[0];
const ref = lpipsFromFeatures(lpipsFeatures(renders[0], weights), refPhoto, weights);
pool.destroy();

console.log(`## LPIPS (AlexNet v0.1) at ${SIZE}x${SIZE}: ${(macs / 1e9).toFixed(3)} G multiply-adds per image\n`);
console.log(`Node ${process.version}; median of ${REPS} after one warm-up. One pair, pool (wasm features both sides) vs reference: ${check.toFixed(8)} vs ${ref.toFixed(8)}\n`);
const load = loadavg()[0].toFixed(1);
console.log(`Load average when done: ${load} on ${availableParallelism()} cores (other processes share the machine when it is above ~0.5).\n`);
console.log('| measurement | threads | ms (wall) | ms per image | GMAC/s (wall) | CPU ms per image |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
