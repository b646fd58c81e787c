// The worker-thread driver of the tile rasterizer: the same image as the dense reference (SH
// degree 3, flat, antialiased), progress per stage, cancellation before and during a render, and
// the pool still renders after a cancel. On the lab's worker pool (poolThreads): bit for bit the
// image of rasterizeTiles on the calling thread (another client's job queued beside it), and
// a failing stage fails that render only. A pool started with the 'raster' entry (what
// TileRasterPool.create() owns) renders that same image on threads that run the rasterizer's jobs only.
import { afterAll, describe, expect, it } from 'vitest';
import { poolThreads, RenderCancelled, TileRasterPool } from '../../../src/main/raster/tile-pool';
import { JobFailed, WorkerPool } from '../../../src/main/workers/pool';
import { compiledPoolWorker } from '../../../src/main/workers/compiled';
import { rasterizeTiles } from '../../../src/shared/raster/cpu/tiles';
import { tileStageJob, type TileStageMessage } from '../../../src/main/raster/tile-jobs';
import { rasterizeForwardDense } from '../../../src/shared/raster/cpu';
import { mulberry32 } from '../../../src/shared/math/random';
import type { RenderProgress } from '../../../src/shared/raster/types';
import { randomCamera, randomSplats, withRandomSh } from '../../shared/raster/cpu/random-scene';

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('TileRasterPool', () => {
  const pool = TileRasterPool.create({ workers: 2 });
  afterAll(() => pool.destroy());

  it('renders the dense reference image on two worker threads (SH 3, flat, antialiased)', async () => {
    const rng = mulberry32(41);
    for (const [degree, antialiased] of [[3, false], [0, false], [3, true]] as const) {
      const cam = randomCamera(rng, 45);
      const flat = randomSplats(rng, 120, cam, { precision: 'f32', nearFraction: 0.05 });
      const s = degree === 0 ? flat : withRandomSh(rng, flat, degree);
      const out = await pool.render(s, cam, { antialiased });
      const ref = rasterizeForwardDense(s, cam, { antialiased });
      expect(maxDiff(out.rgb, ref.rgb)).toBeLessThanOrEqual(1e-5);
      expect(maxDiff(out.alpha, ref.alpha)).toBeLessThanOrEqual(1e-5);
    }
  });

  it("runs on raster-only threads: the same image as the calling thread's, other kinds unknown there", async () => {
    const rng = mulberry32(44);
    const cam = randomCamera(rng, 40);
    const s = withRandomSh(rng, randomSplats(rng, 150, cam, { precision: 'f32' }), 3);
    const raster = new WorkerPool({ size: 1, splitSize: 2, entry: 'raster' });
    try {
      const out = await TileRasterPool.on(poolThreads(raster, 'test')).render(s, cam);
      const ref = rasterizeTiles(s, cam);
      expect(maxDiff(out.rgb, ref.rgb)).toBe(0);
      expect(maxDiff(out.alpha, ref.alpha)).toBe(0);
      await expect(raster.run('probe.echo', { value: 1 }, { client: 'test' })).rejects.toThrow(JobFailed);
      await expect(raster.run('probe.echo', { value: 1 }, { client: 'test' })).rejects.toThrow(/unknown job kind 'probe.echo'/);
    } finally {
      await raster.close();
    }
    expect(compiledPoolWorker('raster-worker.ts')).toMatch(/node_modules\/\.cache\/splatlab\/raster-worker-[0-9a-f]{16}\.mjs$/);
  });

  it('reports progress through every stage and can be cancelled, then renders again', async () => {
    const rng = mulberry32(42);
    const cam = randomCamera(rng, 64);
    const s = withRandomSh(rng, randomSplats(rng, 40000, cam, { precision: 'f32', scaleRange: [0.01, 0.05] }), 3);
    const seen: RenderProgress[] = [];
    const first = await pool.render(s, cam, { onProgress: (p) => seen.push(p) });
    expect(new Set(seen.map((p) => p.stage))).toEqual(new Set(['upload', 'project', 'bin', 'composite']));
    expect(seen.at(-1)).toEqual({ stage: 'composite', fraction: 1 });

    const pre = new AbortController();
    pre.abort();
    await expect(pool.render(s, cam, { signal: pre.signal })).rejects.toBeInstanceOf(RenderCancelled);

    const mid = new AbortController();
    const stopped = pool.render(s, cam, { signal: mid.signal, onProgress: (p) => p.stage === 'project' && mid.abort() });
    await expect(stopped).rejects.toBeInstanceOf(RenderCancelled);

    const again = await pool.render(s, cam);
    expect(maxDiff(again.rgb, first.rgb)).toBe(0);
  });
});

describe('TileRasterPool.on (threads owned elsewhere, e.g. the lab worker pool)', () => {
  it('renders the same image when each "thread" runs the pool job handler', async () => {
    // Stand-in for the lab pool: `size` jobs per stage, each running tileStageJob on the message.
    const threads = { size: 2, runAll: async (msg: Record<string, unknown>) => void (await Promise.all([0, 1].map(async () => tileStageJob(msg as unknown as TileStageMessage)))), destroy: () => undefined };
    const pool = TileRasterPool.on(threads);
    const rng = mulberry32(43);
    const cam = randomCamera(rng, 40);
    const s = withRandomSh(rng, randomSplats(rng, 90, cam, { precision: 'f32' }), 3);
    const out = await pool.render(s, cam);
    expect(maxDiff(out.rgb, rasterizeForwardDense(s, cam).rgb)).toBeLessThanOrEqual(1e-5);
  });
});

describe('TileRasterPool on the lab worker pool (poolThreads)', () => {
  const lab = new WorkerPool({ size: 1, splitSize: 2 });
  const raster = TileRasterPool.on(poolThreads(lab, 'search'));
  afterAll(() => lab.close());

  it("renders bit for bit the calling-thread image with another client's job queued beside it", async () => {
    const rng = mulberry32(44);
    const cam = randomCamera(rng, 96);
    const s = withRandomSh(rng, randomSplats(rng, 30000, cam, { precision: 'f32', scaleRange: [0.01, 0.05] }), 3);
    const other = lab.run('probe.echo', { value: 'b' }, { client: 'b' });
    const [out] = await Promise.all([raster.render(s, cam), other]);
    const here = rasterizeTiles(s, cam);
    expect(maxDiff(out.rgb, here.rgb)).toBe(0);
    expect(maxDiff(out.alpha, here.alpha)).toBe(0);
    expect(lab.stats()).toMatchObject({ threads: 2, running: 0, queued: 0 });
  });

  it('a stage whose part dies fails that render with one line; the next render is whole', async () => {
    // The composite stage's parts crash their thread (the pool's probe), the rest is the real path.
    const real = poolThreads(lab, 'search');
    const crashing = { ...real, runAll: async (msg: Record<string, unknown>) => (msg.type === 'composite' ? void (await lab.runSplit('probe.crash', { code: 3 }, { client: 'search', parts: 2 })) : real.runAll(msg)) };
    const rng = mulberry32(45);
    const cam = randomCamera(rng, 48);
    const s = randomSplats(rng, 200, cam, { precision: 'f32' });
    await expect(TileRasterPool.on(crashing).render(s, cam)).rejects.toThrow(/stopped \(exit code 3\)/);
    const again = await raster.render(s, cam);
    expect(maxDiff(again.rgb, rasterizeTiles(s, cam).rgb)).toBe(0);
  });
});
