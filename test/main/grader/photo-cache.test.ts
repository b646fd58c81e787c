// The per-machine cache of photo LPIPS taps (src/main/grader/photo-cache.ts) and the LpipsPhoto
// path of the pool: a photo's region from the pool equals its features bit for bit, a region read
// back from the cache is the computed one bit for bit, so distances and a whole CPU grade are
// unchanged, also with the decoded-photo and packed-weight caches of a cold `splatlab grade`; a
// file of the wrong length or with corrupted bytes is ignored and rewritten; the key follows the
// photo and the weights. Random AlexNet-shaped weights, small images: no optional part needed.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LpipsPool } from '../../../src/main/lpips/pool';
import { LpipsPhotoCache, photoCacheDir, photoCacheKey } from '../../../src/main/grader/photo-cache';
import { CpuBackend } from '../../../src/main/grader/cpu';
import { loadTask } from '../../../src/main/tasks/load';
import { cachedViewReader, viewCacheDir } from '../../../src/main/tasks/view-cache';
import { packedCacheDir } from '../../../src/main/lpips/packed-cache';
import type { ViewScores } from '../../../src/main/grader/types';
import { TEST_TASK_IDS } from '../../helpers/test-task';
import { packRecords } from '../../../src/shared/scene/records';
import { photoRegion } from '../../../src/shared/metrics/wasm/lpips-wasm';
import { emitLpipsModule } from '../../../src/shared/metrics/wasm/lpips-module';
import { ALEXNET_LAYERS } from '../../../src/shared/metrics/lpips-weights';
import { randomImage, seeded } from '../../shared/metrics/random';
import { randomLpipsWeights } from '../../shared/metrics/wasm/random-weights';
import { fixtureTask } from '../tasks/fixture';

const weights = randomLpipsWeights(31);
const rand = seeded(7);
const size = 48;
const photo = randomImage(size, size, rand);
const render = randomImage(size, size, rand);

describe('LpipsPhotoCache', () => {
  const pool = LpipsPool.create(weights, { workers: 1 });
  afterAll(() => pool.destroy());

  it('gives the region of the features and the same distances, read back bit for bit', async () => {
    const { plan } = emitLpipsModule(ALEXNET_LAYERS, size, size);
    const features = await pool.features(photo);
    const fresh = await pool.photo(photo);
    expect(fresh.region).toEqual(photoRegion(features, plan));

    const dir = join(mkdtempSync(join(tmpdir(), 'splatlab-photo-cache-')), 'lpips-photos');
    const computed = await new LpipsPhotoCache(dir).photo(pool, photo);
    const files = readdirSync(dir);
    expect(files).toEqual([`${photoCacheKey(pool, photo)}.f32`]);
    // A new cache object (as a new process) reads the file instead of computing.
    const cached = await new LpipsPhotoCache(dir).photo(pool, photo);
    expect(cached.region).toEqual(computed.region);
    expect(cached.region.buffer).toBeInstanceOf(SharedArrayBuffer);
    const expected = await pool.distance(render, features);
    expect(await pool.distance(render, cached)).toBe(expected);
    expect(await pool.distance(render, computed)).toBe(expected);

    // A file of the wrong length is not a region: computed again and rewritten whole.
    const path = join(dir, files[0]);
    const good = readFileSync(path);
    writeFileSync(path, Buffer.alloc(12));
    const again = await new LpipsPhotoCache(dir).photo(pool, photo);
    expect(again.region).toEqual(computed.region);
    expect(readFileSync(path)).toEqual(good);
    expect(good.byteLength).toBe(computed.region.byteLength + 32); // the floats and their SHA-256

    // A file of the right length with a corrupted float is not served: computed again, rewritten.
    const corrupt = Buffer.from(good);
    corrupt[40] ^= 0x10;
    writeFileSync(path, corrupt);
    const repaired = await new LpipsPhotoCache(dir).photo(pool, photo);
    expect(repaired.region).toEqual(computed.region);
    expect(readFileSync(path)).toEqual(good);
  });

  it('keys on the photo, its size and the weights', () => {
    const edited = { ...photo, data: photo.data.slice() };
    edited.data[100] += 1e-3;
    expect(photoCacheKey(pool, edited)).not.toBe(photoCacheKey(pool, photo));
    const other = LpipsPool.create(randomLpipsWeights(32), { workers: 1 });
    try {
      expect(photoCacheKey(other, photo)).not.toBe(photoCacheKey(pool, photo));
    } finally {
      other.destroy();
    }
    expect(photoCacheDir('/some/home')).toBe(join('/some/home', 'cache', 'lpips-photos'));
  });

  it('a distance refuses a photo of another size', async () => {
    const small = await pool.photo(randomImage(40, 40, rand));
    await expect(pool.distance(render, small)).rejects.toThrow(/photo is 40x40/);
  });

  it('leaves a CPU grade exactly as without the caches, from empty and from filled ones', async () => {
    const { task: built } = await fixtureTask();
    const home = mkdtempSync(join(tmpdir(), 'splatlab-cold-caches-'));
    const splats = packRecords(built.init);
    // A cold process: the task's photos through the view cache, the photo taps and the packed
    // weights through theirs (as `splatlab grade`), against no cache at all.
    const scores = async (cached: boolean): Promise<ViewScores[]> => {
      const readViews = cached ? { readViews: cachedViewReader(viewCacheDir(home)) } : {};
      const task = await loadTask(TEST_TASK_IDS.sculpt, { tasksDir: built.tasksDir, heldoutOnly: true, ...readViews });
      const caches = cached ? { photoCache: photoCacheDir(home), weightsCache: packedCacheDir(home) } : {};
      const backend = new CpuBackend(weights, { lpipsWorkers: 1, ...caches });
      try {
        return (await backend.renderAndMeasure(splats, task.heldout.slice(0, 3), true)).scores;
      } finally {
        backend.destroy();
      }
    };
    const plain = await scores(false);
    expect(plain.every((s) => s.lpips !== undefined && s.lpips > 0)).toBe(true);
    expect(await scores(true)).toEqual(plain);
    expect(readdirSync(photoCacheDir(home))).toHaveLength(3);
    expect(readdirSync(packedCacheDir(home))).toHaveLength(1);
    expect(readdirSync(viewCacheDir(home))).toHaveLength(1);
    // From filled caches: the same scores (to 1e-6 at least; bit for bit here).
    const hit = await scores(true);
    for (const [i, s] of hit.entries()) {
      for (const k of ['psnr', 'ssim', 'iou', 'lpips'] as const) expect(Math.abs((s[k] as number) - (plain[i][k] as number))).toBeLessThanOrEqual(1e-6);
    }
    expect(hit).toEqual(plain);
  });
});
