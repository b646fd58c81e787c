// Benchmark of the grader's image metrics at 256x256: SSIM and LPIPS per image, and the 8-view
// batch with all four metrics (photo-side SSIM planes and LPIPS features cached, as the grader
// does), on the CPU references, on the CPU fast path (SsimTarget + wasm SIMD LPIPS on worker
// threads, the grader's CPU backend) and on the GPU (Dawn; SwiftShader when no hardware adapter).
// Run: node --import tsx test/bench/metrics.bench.ts [--reps N] [--cpu]. Prints a markdown table.
import { acquireGpu } from '../../src/main/gpu/device';
import { loadShaders } from '../../src/main/gpu/shaders';
import type { RgbImage } from '../../src/shared/image/image';
import { loadLpipsWeights, resolveLpipsDir } from '../../src/main/lpips/weights';
import { GpuMetrics } from '../../src/shared/metrics/gpu/gpu-metrics';
import { lpipsFeatures, lpipsFromFeatures } from '../../src/shared/metrics/lpips';
import { iou, maskFromCoverage, maskFromImage } from '../../src/shared/metrics/mask';
import { psnr } from '../../src/shared/metrics/psnr';
import { ssim } from '../../src/shared/metrics/ssim';
import { SsimTarget } from '../../src/shared/metrics/ssim-target';
import { LpipsWasm } from '../../src/shared/metrics/wasm/lpips-wasm';
import { LpipsPool } from '../../src/main/lpips/pool';

const SIZE = 256;
const VIEWS = 8;
const repsArg = process.argv.indexOf('--reps');
const REPS = repsArg > 0 ? Number(process.argv[repsArg + 1]) : 3;

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

async function time(fn: () => unknown): Promise<number> {
  await fn(); // warm-up: pipelines, plans, JIT
  const t: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    await fn();
    t.push(performance.now() - t0);
  }
  return t.sort((a, b) => a - b)[Math.floor(t.length / 2)];
}

const rows: string[][] = [];
const row = (what: string, where: string, ms: number | null, note = '') => rows.push([what, where, ms === null ? 'n/a' : ms.toFixed(1), note]);

const renders = Array.from({ length: VIEWS }, (_, i) => image(100 + i));
const photos = Array.from({ length: VIEWS }, (_, i) => image(200 + i));
const coverage = renders.map(() => Float32Array.from({ length: SIZE * SIZE }, (_, j) => ((j % SIZE) - 128) ** 2 + (Math.floor(j / SIZE) - 128) ** 2 < 80 ** 2 ? 1 : 0));
const weights = resolveLpipsDir() ? loadLpipsWeights() : null;

row('SSIM, 1 pair', 'CPU', await time(() => ssim(renders[0], photos[0])));
const targets = photos.map((p) => new SsimTarget(p));
row('SSIM, 1 pair', 'CPU fast', await time(() => targets[0].evaluate(renders[0].data)), 'SsimTarget, photo planes cached');
if (weights) {
  row('LPIPS features, 1 image', 'CPU', await time(() => lpipsFeatures(renders[0], weights)));
  const wasmNet = await new LpipsWasm(weights).net(SIZE, SIZE);
  row('LPIPS features, 1 image', 'CPU fast', await time(() => wasmNet.features(renders[0])), 'wasm SIMD, 1 thread');
  const pool = LpipsPool.create(weights);
  await pool.prepare(SIZE, SIZE);
  const fastPhotos = await Promise.all(photos.map((p) => pool.features(p)));
  const fastMasks = photos.map((p) => maskFromImage(p));
  row(`${VIEWS}-view batch, all metrics`, 'CPU fast', await time(async () => {
    const lpips = pool.distances(renders.map((render, i) => ({ render, photoFeatures: fastPhotos[i] })));
    const others = renders.map((r, i) => ({ psnr: psnr(r, photos[i]), ssim: targets[i].evaluate(r.data), iou: iou(maskFromCoverage(coverage[i]), fastMasks[i]) }));
    return { others, lpips: await lpips };
  }), `LPIPS on ${pool.size} worker threads`);
  pool.destroy();
  const photoFeatures = photos.map((p) => lpipsFeatures(p, weights));
  const masks = photos.map((p) => maskFromImage(p));
  row(`${VIEWS}-view batch, all metrics`, 'CPU', await time(() => renders.map((r, i) => ({
    psnr: psnr(r, photos[i]),
    ssim: ssim(r, photos[i]),
    iou: iou(maskFromCoverage(coverage[i]), masks[i]),
    lpips: lpipsFromFeatures(lpipsFeatures(r, weights), photoFeatures[i], weights),
  }))), 'photo features cached');
}

const { device: gpuDevice, status } = await acquireGpu({ forceCpu: process.argv.includes('--cpu') });
const gpu = gpuDevice ? { device: gpuDevice, name: status.summary } : null;
if (gpu) {
  const metrics = GpuMetrics.create(gpu.device, loadShaders(), weights);
  const prepared = await metrics.preparePhotos(photos.map((image) => ({ image })));
  const noLpips = GpuMetrics.create(gpu.device, loadShaders(), null);
  row('SSIM+PSNR+IoU, 1 pair', 'GPU', await time(() => noLpips.compute([{ render: renders[0], coverage: coverage[0], photo: prepared[0] }])), 'no LPIPS');
  const views = renders.map((render, i) => ({ render, coverage: coverage[i], photo: prepared[i] }));
  row(`${VIEWS}-view batch, SSIM+PSNR+IoU`, 'GPU', await time(() => noLpips.compute(views)), 'no LPIPS');
  if (weights) {
    row('LPIPS + others, 1 pair', 'GPU', await time(() => metrics.compute([{ render: renders[0], coverage: coverage[0], photo: prepared[0] }])), 'photo taps cached');
    row(`photo preparation, ${VIEWS} photos`, 'GPU', await time(() => metrics.preparePhotos(photos.map((image) => ({ image })))), 'once per task');
  }
  row(`${VIEWS}-view batch, all metrics`, 'GPU', await time(() => metrics.compute(views)), weights ? 'photo taps cached' : 'no LPIPS weights');
  console.log(`GPU: ${gpu.name}`);
} else {
  row('GPU rows', 'GPU', null, 'no WebGPU adapter');
}
console.log(`\n${SIZE}x${SIZE}, median of ${REPS} after one warm-up\n`);
console.log('| measurement | device | ms | note |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
