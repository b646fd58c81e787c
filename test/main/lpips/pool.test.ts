// The LPIPS worker pool: distances equal the single-threaded wasm network's exactly (the same
// module on another thread) and the reference to ~1e-5, in pair order across workers, with
// features from the pool and with a photo's region in shared memory, incrementally or (a one-shot
// grade's pool) whole on the scratch slot; misuse errors; and workers never keep the process alive.
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LpipsPool } from '../../../src/main/lpips/pool';
import { lpipsFeatures, lpipsFromFeatures } from '../../../src/shared/metrics/lpips';
import { LpipsWasm } from '../../../src/shared/metrics/wasm/lpips-wasm';
import { randomImage, seeded } from '../../shared/metrics/random';
import { randomLpipsWeights } from '../../shared/metrics/wasm/random-weights';

const weights = randomLpipsWeights(77);
const rand = seeded(99);
const size = 64;
const photos = Array.from({ length: 5 }, () => randomImage(size, size, rand));
const renders = Array.from({ length: 5 }, () => randomImage(size, size, rand));

describe('LpipsPool', () => {
  const pool = LpipsPool.create(weights, { workers: 2 });
  afterAll(() => pool.destroy());

  it('gives the single-threaded wasm distances exactly, in pair order', async () => {
    expect(pool.size).toBe(2);
    const single = new LpipsWasm(weights);
    const photoFeatures = await Promise.all(photos.map((p) => pool.features(p)));
    const expectedFeatures = await Promise.all(photos.map((p) => single.features(p)));
    expect(photoFeatures).toEqual(expectedFeatures);
    const pairs = renders.map((render, i) => ({ render, photoFeatures: photoFeatures[i] }));
    const got = await pool.distances(pairs);
    const expected = await Promise.all(renders.map((r, i) => single.distance(r, photoFeatures[i])));
    expect(got).toEqual(expected);
    expect(new Set(got).size).toBe(got.length);
    // Reversed order, photos already on the workers (now on the other worker for most pairs).
    expect(await pool.distances([...pairs].reverse())).toEqual([...expected].reverse());
    expect(await pool.distances([])).toEqual([]);
  });

  it('keeps each photo on one worker and gives the full-pass distances after edits', async () => {
    const single = new LpipsWasm(weights);
    const photoFeatures = await Promise.all(photos.map((p) => pool.features(p)));
    // Each round edits a patch of every render, as a scene edit changes part of every view.
    let current = renders.map((r) => ({ ...r, data: r.data.slice() }));
    for (let round = 0; round < 3; round++) {
      current = current.map((r, i) => {
        const data = r.data.slice();
        const x0 = (round * 17 + i * 9) % (size - 8);
        for (let y = 10; y < 18; y++) for (let x = x0; x < x0 + 8; x++) data[(y * size + x) * 3 + (round % 3)] = rand();
        return { ...r, data };
      });
      const got = await pool.distances(current.map((render, i) => ({ render, photoFeatures: photoFeatures[i] })));
      const expected = await Promise.all(current.map((r, i) => single.distance(r, photoFeatures[i])));
      expect(got).toEqual(expected);
    }
  });

  it('without incremental slots (a one-shot grade), gives the same distances, over edits too', async () => {
    const single = new LpipsWasm(weights);
    const oneShot = LpipsPool.create(weights, { workers: 2, incremental: false });
    try {
      const features = await Promise.all(photos.map((p) => oneShot.photo(p)));
      const expectedFeatures = await Promise.all(photos.map((p) => single.features(p)));
      for (const edit of [0, 1]) {
        const current = renders.map((r) => ({ ...r, data: r.data.map((v, j) => (edit && j % 97 === 0 ? 1 - v : v)) }));
        const got = await Promise.all(current.map((r, i) => oneShot.distance(r, features[i])));
        expect(got).toEqual(await Promise.all(current.map((r, i) => single.distance(r, expectedFeatures[i]))));
      }
      // No view slot was taken; the incremental pool takes one per photo.
      expect(oneShot.viewSlots).toBe(0);
      await pool.distance(renders[0], await pool.photo(photos[0]));
      expect(pool.viewSlots).toBeGreaterThan(0);
    } finally {
      oneShot.destroy();
    }
  });

  it('gives a photo\'s region in shared memory, sent on to its worker uncopied, with the same distances', async () => {
    const single = new LpipsWasm(weights);
    const photo = await pool.photo(photos[2]);
    // Shared: posting it to the worker of its distances copies nothing on the event loop (issue 38 item 1).
    expect(photo.region.buffer).toBeInstanceOf(SharedArrayBuffer);
    const d = await pool.distance(renders[2], photo);
    expect(d).toBe(await single.distance(renders[2], await single.features(photos[2])));
  });

  it('agrees with the reference lpips to 1e-5 relative', async () => {
    const ref = lpipsFromFeatures(lpipsFeatures(renders[0], weights), lpipsFeatures(photos[0], weights), weights);
    const [d] = await pool.distances([{ render: renders[0], photoFeatures: lpipsFeatures(photos[0], weights) }]);
    expect(Math.abs(d - ref) / ref).toBeLessThan(1e-5);
  });

  it('handles several image sizes and reports worker errors per call', async () => {
    const small = randomImage(70, 66, rand);
    const f = await pool.features(small);
    const [d] = await pool.distances([{ render: small, photoFeatures: f }]);
    expect(d).toBeLessThan(1e-12);
    await expect(pool.distances([{ render: renders[0], photoFeatures: f }])).rejects.toThrow(/photo tap 0 is 64x15x16, expected 64x15x15/);
    await expect(pool.features(randomImage(16, 16, rand))).rejects.toThrow(/too small/);
    // The pool still works after a failed call.
    expect(await pool.distances([{ render: small, photoFeatures: f }])).toEqual([d]);
  });

  it('rejects use after destroy', async () => {
    const p = LpipsPool.create(weights, { workers: 1 });
    p.destroy();
    await expect(p.distances([])).rejects.toThrow(/after destroy/);
    expect(() => LpipsPool.create(weights, { workers: 0 })).toThrow(/positive integer/);
  });
});

describe('LpipsPool process lifetime', () => {
  it('lets the process exit with or without destroy()', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpips-pool-'));
    const script = join(dir, 'exit.mts');
    const src = (rel: string) => JSON.stringify(resolve(import.meta.dirname, rel));
    writeFileSync(script, [
      `import { LpipsPool } from ${src('../../../src/main/lpips/pool.ts')};`,
      `import { randomLpipsWeights } from ${src('../../shared/metrics/wasm/random-weights.ts')};`,
      `import { randomImage, seeded } from ${src('../../shared/metrics/random.ts')};`,
      'const pool = LpipsPool.create(randomLpipsWeights(1), { workers: 2 });',
      'const img = randomImage(64, 64, seeded(1));',
      'const f = await pool.features(img);',
      'const d = await pool.distances([{ render: img, photoFeatures: f }, { render: img, photoFeatures: f }]);',
      "console.log('distances', d.length);",
      "if (process.argv[2] === 'destroy') pool.destroy();",
    ].join('\n'));
    for (const mode of ['destroy', 'keep']) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', script, mode], { encoding: 'utf8', timeout: 50_000 });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('distances 2');
    }
  });
});
