// A NeRF upload against the event loop (issue 38 item 1): the lab's event-loop delay (p50, p99,
// max, monitorEventLoopDelay at 10 ms) while a legal capture's frames are decoded and the object
// placed, on the main thread (as `author.upload.finish` did before) and on the worker pool (job
// 'nerf.read', as it does now), and the time the amplified capture (one 2048x2048 PNG named by
// 200 frames) takes to be refused. The fit and 16 playing clients of the full benchmark
// are not part of it. Run: npm run bench -- nerf-upload. Prints markdown.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readCapture } from '../../src/main/authoring/nerf-capture';
import { readTransforms } from '../../src/main/authoring/nerf-frames';
import { encodePng } from '../../src/main/io/png';
import { WorkerPool } from '../../src/main/workers/pool';
import { writeNerfFixture } from '../main/authoring/nerf-fixture';

const FRAMES = 40;
const SIZE = 800;
const dir = mkdtempSync(join(tmpdir(), 'splatlab-nerf-bench-'));
writeNerfFixture(dir, { frames: FRAMES, size: SIZE });
const transforms = readTransforms(join(dir, 'transforms_train.json'));

async function measured(run: () => Promise<unknown>): Promise<{ ms: number; p50: number; p99: number; max: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  h.disable();
  const f = (ns: number): number => Math.round(ns / 1e5) / 10;
  return { ms: Math.round(ms), p50: f(h.percentile(50)), p99: f(h.percentile(99)), max: f(h.max) };
}

const pool = new WorkerPool();
await pool.run('nerf.read', { dir, transforms, size: 64 }, { client: 'warm' }); // the thread and its bundle
const rows: string[] = [];
const main = await measured(async () => {
  await new Promise((r) => setTimeout(r, 20));
  readCapture(dir, transforms, 256);
  await new Promise((r) => setTimeout(r, 20));
});
rows.push(`| main thread (before) | ${main.ms} | ${main.p50} | ${main.p99} | ${main.max} |`);
const onPool = await measured(() => pool.run('nerf.read', { dir, transforms, size: 256 }, { client: 'bench' }));
rows.push(`| worker pool, job nerf.read (now) | ${onPool.ms} | ${onPool.p50} | ${onPool.p99} | ${onPool.max} |`);

const bomb = mkdtempSync(join(tmpdir(), 'splatlab-nerf-bomb-'));
writeFileSync(join(bomb, 'r_0.png'), encodePng({ width: 2048, height: 2048, channels: 4, data: new Uint8Array(2048 * 2048 * 4) }));
writeFileSync(join(bomb, 'transforms_train.json'), JSON.stringify({ camera_angle_x: 0.69, frames: Array.from({ length: 200 }, () => ({ file_path: './r_0', transform_matrix: transforms.frames[0].transform_matrix })) }));
const refused = await measured(() => pool.run('nerf.read', { dir: bomb, transforms: readTransforms(join(bomb, 'transforms_train.json')), size: 256 }, { client: 'bench' }).catch(() => undefined));
rows.push(`| amplified capture, refused (200 frames naming one 2048x2048 PNG) | ${refused.ms} | ${refused.p50} | ${refused.p99} | ${refused.max} |`);
await pool.close();

process.stdout.write(`${FRAMES} frames of ${SIZE}x${SIZE} RGBA decoded to 256x256 and placed (visual hull):\n\n`);
process.stdout.write('| where | ms | loop delay p50 (ms) | p99 (ms) | max (ms) |\n|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n`);
