// The per-machine cache of packed LPIPS weights (src/main/lpips/packed-cache.ts): what it gives
// equals packLpipsWeights, from an empty cache and from its file, in shared memory; a corrupted
// entry is packed again and rewritten; other weights are another entry. A weights folder's key
// from its manifest equals the key from its floats, so a grader whose cache holds the folder's
// weights takes them packed without reading the files (a cold `splatlab grade`), and a pool from
// them gives the same distances and photo-cache fingerprint. Random AlexNet-shaped weights
// (written as a folder with its manifest): no optional part needed.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Grader } from '../../../src/main/grader/grader';
import { writeLpipsFolder } from '../../../src/main/lpips/convert';
import { cachedPackedWeights, packedCacheDir, packedCacheKey, readPackedCache } from '../../../src/main/lpips/packed-cache';
import { LpipsPool } from '../../../src/main/lpips/pool';
import { lpipsWeightFiles, readLpipsWeights } from '../../../src/main/lpips/weights';
import { LPIPS_TENSOR_SHAPES, type LpipsWeights, type NamedTensor } from '../../../src/shared/metrics/lpips-weights';
import { packLpipsWeights } from '../../../src/shared/metrics/wasm/lpips-module';
import { randomImage, seeded } from '../../shared/metrics/random';
import { randomLpipsWeights } from '../../shared/metrics/wasm/random-weights';

const weights = randomLpipsWeights(41);
/** Bitwise equality of two float arrays (2.5 M floats: expect().toEqual compares value by value, slowly). */
const same = (a: Float32Array, b: Float32Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('cachedPackedWeights', () => {
  it('equals packLpipsWeights from an empty and a filled cache; a corrupted entry is packed again', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'splatlab-packed-')), 'lpips-packed');
    const plain = packLpipsWeights(weights);
    const first = cachedPackedWeights(weights, dir);
    expect(same(first, plain)).toBe(true);
    expect(first.buffer).toBeInstanceOf(SharedArrayBuffer);
    const files = readdirSync(dir);
    expect(files).toEqual([`${packedCacheKey(weights)}.f32`]);
    expect(same(cachedPackedWeights(weights, dir), plain)).toBe(true);

    const path = join(dir, files[0]);
    const good = readFileSync(path);
    const corrupt = Buffer.from(good);
    corrupt[1000] ^= 0x40;
    writeFileSync(path, corrupt);
    expect(same(cachedPackedWeights(weights, dir), plain)).toBe(true);
    expect(readFileSync(path).equals(good)).toBe(true);
  });

  it('keys on the weights', () => {
    const other = randomLpipsWeights(41);
    other.lin[4][3] += 1e-3;
    expect(packedCacheKey(other)).not.toBe(packedCacheKey(weights));
    expect(packedCacheKey(randomLpipsWeights(41))).toBe(packedCacheKey(weights));
    expect(packedCacheDir('/some/home')).toBe(join('/some/home', 'cache', 'lpips-packed'));
  });

  it('takes a weights folder packed from the cache under its manifest hashes, as from its floats', async () => {
    const root = mkdtempSync(join(tmpdir(), 'splatlab-packed-folder-'));
    const folder = join(root, 'weights');
    writeLpipsFolder(folder, tensorsOf(weights));
    const files = lpipsWeightFiles({ dir: folder });
    const read = readLpipsWeights(files);
    expect(packedCacheKey(files)).toBe(packedCacheKey(read));
    expect(packedCacheKey(files)).toBe(packedCacheKey(weights));
    const dir = packedCacheDir(root);
    expect(readPackedCache(files, dir)).toBeNull();
    cachedPackedWeights(read, dir);
    const hit = readPackedCache(files, dir);
    expect(hit?.id).toBe(packedCacheKey(files));
    expect(hit && same(hit.packed, packLpipsWeights(weights))).toBe(true);
    expect(hit?.packed.buffer).toBeInstanceOf(SharedArrayBuffer);

    // A pool from the packed weights: the distances and the photo cache's fingerprint of one from the weights.
    const rand = seeded(5);
    const [a, b] = [randomImage(40, 40, rand), randomImage(40, 40, rand)];
    const fromWeights = LpipsPool.create(weights, { workers: 1 });
    const fromPacked = LpipsPool.create(hit as NonNullable<typeof hit>, { workers: 1 });
    try {
      expect(fromPacked.fingerprint(40, 40)).toBe(fromWeights.fingerprint(40, 40));
      expect(await fromPacked.distance(a, await fromPacked.features(b))).toBe(await fromWeights.distance(a, await fromWeights.features(b)));
    } finally {
      fromWeights.destroy();
      fromPacked.destroy();
    }

    // The CPU grader with the cache filled reads no weight file (a corrupted one goes unseen: the
    // packed floats are those of the manifest's hashes); without the cache it reads and refuses it.
    const file = join(folder, files.manifest['features.3.weight'].file);
    const bytes = readFileSync(file);
    bytes[8] ^= 0x01;
    writeFileSync(file, bytes);
    const cached = await Grader.create({ device: null, lpipsDir: folder, weightsCache: dir, lpipsWorkers: 1 });
    const uncached = await Grader.create({ device: null, lpipsDir: folder, lpipsWorkers: 1 });
    try {
      expect(cached.lpipsProblem).toBeNull();
      expect(uncached.lpipsProblem).toMatch(/features_3_weight\.f32 fails its sha256 check/);
    } finally {
      cached.destroy();
      uncached.destroy();
    }
    // Other weights in the folder (a new manifest) are another entry: a miss.
    const other = randomLpipsWeights(42);
    writeLpipsFolder(folder, tensorsOf(other));
    expect(readPackedCache(lpipsWeightFiles({ dir: folder }), dir)).toBeNull();
  });
});

/** The weights as the named torch-layout tensors a weights folder holds. */
function tensorsOf(w: LpipsWeights): Record<string, NamedTensor> {
  const data: Record<string, Float32Array> = {};
  w.conv.forEach((l, k) => {
    data[`${l.name}.weight`] = l.weight;
    data[`${l.name}.bias`] = l.bias;
    data[`lin${k}`] = w.lin[k];
  });
  return Object.fromEntries(Object.entries(LPIPS_TENSOR_SHAPES).map(([name, shape]) => [name, { shape, data: data[name] }]));
}
