// Benchmark of the procedural-object ray caster: one 256x256 view with 4x4 supersampling and the
// 16 standard views (V0..V7 + H0..H7), on the CPU reference and on the WGSL twin when a WebGPU
// adapter exists (Dawn: hardware first, else SwiftShader).
// Run: node --import tsx test/bench/raycast.bench.ts [--object NAME] [--cpu] [--reps N]. Prints a markdown table.
import { performance } from 'node:perf_hooks';
import { acquireGpu } from '../../src/main/gpu/device';
import { loadShaders } from '../../src/main/gpu/shaders';
import { raycastObjectGpu, raycastViewsGpu } from '../../src/shared/authoring/gpu/raycast';
import { getObject } from '../../src/shared/authoring/objects';
import { raycastObject, raycastViews } from '../../src/shared/authoring/raycast';
import { HELDOUT_VIEWS, REFERENCE_VIEWS, viewCameras } from '../../src/shared/camera/views';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string): string => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const objectName = arg('--object', 'robot');
const reps = Number(arg('--reps', '2'));
const cpuOnly = argv.includes('--cpu');
const SIZE = 256;
const SAMPLES = 4;

const obj = getObject(objectName);
const cameras = viewCameras([...REFERENCE_VIEWS, ...HELDOUT_VIEWS], SIZE);
const rows: string[] = [];

/** Best of `reps` wall times in ms (after one untimed warm-up run). */
async function best(run: () => unknown): Promise<number> {
  await run();
  let min = Infinity;
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await run();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

function row(device: string, what: string, ms: number, views: number): void {
  const rays = views * SIZE * SIZE * SAMPLES * SAMPLES;
  rows.push(`| ${device} | ${what} | ${ms.toFixed(0)} | ${(ms / views).toFixed(0)} | ${(rays / ms / 1000).toFixed(2)} |`);
}

row('cpu (float64 reference)', '1 view', await best(() => raycastObject(obj, cameras[0], { samples: SAMPLES })), 1);
row('cpu (float64 reference)', '16 views', await best(() => raycastViews(obj, cameras, { samples: SAMPLES })), 16);

if (!cpuOnly) {
  const gpu = await acquireGpu();
  if (gpu.device) {
    const device = gpu.device;
    const library = loadShaders();
    const name = `gpu (${[gpu.status.vendor, gpu.status.architecture].filter(Boolean).join(' ') || 'unknown'})`;
    row(name, '1 view', await best(() => raycastObjectGpu(device, library, obj, cameras[0], { samples: SAMPLES })), 1);
    row(name, '16 views (one submit)', await best(() => raycastViewsGpu(device, library, obj, cameras, { samples: SAMPLES })), 16);
    device.destroy();
  } else {
    rows.push('| gpu | - | - | - | no WebGPU adapter |');
  }
}

console.log(`## Ray caster, ${objectName} (${obj.parts.length} parts), ${SIZE}x${SIZE}, ${SAMPLES}x${SAMPLES} samples per pixel, best of ${reps} after a warm-up\n`);
console.log('| device | work | total ms | ms / view | Mrays/s |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
process.exit(0);
