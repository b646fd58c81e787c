// Benchmark of the WGSL rasterizer through GpuRasterizer (Dawn; SwiftShader when no hardware
// adapter): forward per view, forward + backward per view, and forwardBatch of the 8 reference
// views in one submission (the grader's render). The CPU reference forward is timed alongside.
// Scene: 300 seeded random Gaussians inside the bounds cube (scales 0.02-0.2), 256x256.
// Run: node --import tsx test/bench/raster-gpu.bench.ts [--reps N]. Prints a markdown table (ms).
import { performance } from 'node:perf_hooks';
import { acquireGpu } from '../../src/main/gpu/device';
import { loadShaders } from '../../src/main/gpu/shaders';
import { REFERENCE_VIEWS, viewCameras } from '../../src/shared/camera/views';
import { GpuRasterizer } from '../../src/shared/raster/gpu';
import { rasterizeForward } from '../../src/shared/raster/cpu';
import { mulberry32 } from '../../src/shared/math/random';
import { emptySplats, type Splats } from '../../src/shared/scene/splats';

const repsArg = process.argv.indexOf('--reps');
const REPS = repsArg > 0 ? Number(process.argv[repsArg + 1]) : 5;

function scene(n: number): Splats {
  const rng = mulberry32(300);
  const s = emptySplats(n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      s.means[i * 3 + k] = rng.uniform(-0.9, 0.9);
      s.scales[i * 3 + k] = Math.exp(rng.uniform(Math.log(0.02), Math.log(0.2)));
      s.colors[i * 3 + k] = rng.next();
    }
    for (let k = 0; k < 4; k++) s.quats[i * 4 + k] = rng.normal();
    s.opacities[i] = rng.uniform(0.3, 1);
  }
  return s;
}

async function timeMs(fn: () => Promise<unknown>, reps: number): Promise<number[]> {
  await fn(); // warm-up: pipeline compilation and buffer allocation
  const out: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

function row(name: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return `| ${name} | ${median.toFixed(1)} | ${sorted[0].toFixed(1)} | ${sorted[sorted.length - 1].toFixed(1)} |`;
}

async function main(): Promise<void> {
  const gpu = await acquireGpu();
  if (!gpu.device) {
    console.log(`No WebGPU adapter: nothing to benchmark (${gpu.status.summary}).`);
    return;
  }
  const device = gpu.device;
  console.log(gpu.status.summary);
  const raster = GpuRasterizer.create(device, loadShaders());
  const splats = scene(300);
  const cameras = viewCameras(REFERENCE_VIEWS, 256);
  const cam = cameras[0];
  const vRgb = new Float32Array(256 * 256 * 3).fill(0.01);

  const rows = [
    row('CPU reference forward, 1 view', await timeMs(async () => rasterizeForward(splats, cam), REPS)),
    row('GPU forward, 1 view', await timeMs(() => raster.forward(splats, cam), REPS)),
    row('GPU forward + backward, 1 view', await timeMs(() => raster.backward(splats, cam, { v_rgb: vRgb }), REPS)),
    row('GPU forwardBatch, 8 views (one submit)', await timeMs(() => raster.forwardBatch(splats, cameras), REPS)),
  ];
  console.log(`300 Gaussians, 256x256, ${REPS} reps after one warm-up\n`);
  console.log('| case | median ms | min ms | max ms |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(r);
  raster.destroy();
  device.destroy();
}

await main();
