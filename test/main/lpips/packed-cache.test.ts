// The per-machine cache of packed LPIPS weights (src/main/lpips/packed-cache.ts): what it gives
// equals packLpipsWeights, from an empty cache and from its file, in shared memory; a corrupted
// entry is packed again and rewritten; other weights are another entry. Random AlexNet-shaped
// weights: no optional part needed.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedPackedWeights, packedCacheDir, packedCacheKey } from '../../../src/main/lpips/packed-cache';
import { packLpipsWeights } from '../../../src/shared/metrics/wasm/lpips-module';
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
});
