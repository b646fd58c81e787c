// Benchmark of the CPU reference rasterizer: forward, and forward + backward, per view.
// Scene: 300 seeded random Gaussians inside the bounds cube (scales 0.02-0.2, the size range of
// hand-built SplatBench scenes), rendered at 256x256 from the reference views V0..V7.
// Run: node --import tsx test/bench/raster-cpu.bench.ts. Prints a markdown table of milliseconds.
import { performance } from 'node:perf_hooks';
import { viewCameras, REFERENCE_VIEWS } from '../../src/shared/camera/views';
import { rasterizeBackward, rasterizeForward, rasterizeForwardState } from '../../src/shared/raster/cpu';
import { mulberry32 } from '../../src/shared/math/random';
import { emptySplats, type Splats } from '../../src/shared/scene/splats';

function scene(n: number, precision: 'f32' | 'f64'): Splats {
  const rng = mulberry32(300);
  const s = emptySplats(n, precision);
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

function timeMs(fn: () => void, reps: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

function stats(xs: number[]): { median: number; min: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0] };
}

const cams = viewCameras(REFERENCE_VIEWS, 256);
const reps = 3;
const rows: string[] = [];
for (const precision of ['f32', 'f64'] as const) {
  const splats = scene(300, precision);
  const vRgb = new Float64Array(256 * 256 * 3).fill(1e-3);
  const vAlpha = new Float64Array(256 * 256).fill(1e-3);
  // Warm-up so the JIT has compiled the hot loops before timing.
  rasterizeBackward(splats, cams[0], { v_rgb: vRgb, v_alpha: vAlpha });
  const fwd: number[] = [];
  const both: number[] = [];
  const bwdOnly: number[] = [];
  for (const cam of cams) {
    fwd.push(...timeMs(() => rasterizeForward(splats, cam), reps));
    both.push(...timeMs(() => rasterizeBackward(splats, cam, { v_rgb: vRgb, v_alpha: vAlpha }, rasterizeForwardState(splats, cam)), reps));
    const state = rasterizeForwardState(splats, cam);
    bwdOnly.push(...timeMs(() => rasterizeBackward(splats, cam, { v_rgb: vRgb, v_alpha: vAlpha }, state), reps));
  }
  for (const [name, xs] of [['forward', fwd], ['backward (given forward state)', bwdOnly], ['forward + backward', both]] as const) {
    const { median, min } = stats(xs);
    rows.push(`| ${name} | ${precision} | ${median.toFixed(1)} | ${min.toFixed(1)} |`);
  }
}
console.log(`CPU reference rasterizer, 300 Gaussians, 256x256, views V0..V7 x ${reps} runs (Node ${process.version})\n`);
console.log('| pass | splats | median ms / view | min ms / view |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(r);
