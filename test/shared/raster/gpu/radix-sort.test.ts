// The GPU radix sort against its CPU reference (radixSortPairs) on seeded random keys: full 32-bit
// keys, few distinct keys (stability), a key count that is not a multiple of anything, one key.
import { describe, expect, it } from 'vitest';
import { gpuDevice } from '../../../helpers/gpu';
import { loadShaderLibrary } from '../../../helpers/shaders';
import { radixSortGpu, sortPasses } from '../../../../src/shared/raster/gpu/radix-sort';
import { radixSortPairs } from '../../../../src/shared/raster/cpu/radix';
import { mulberry32 } from '../../../../src/shared/math/random';
import { skipWithout } from '../../../helpers/optional';

describe('sortPasses', () => {
  it('is even and covers the key bits', () => {
    expect([1, 8, 9, 16, 17, 32].map(sortPasses)).toEqual([2, 2, 2, 2, 4, 4]);
  });
});

describe.skipIf(skipWithout('gpu', gpuDevice !== null))('radixSortGpu', () => {
  const device = gpuDevice as GPUDevice;
  const library = loadShaderLibrary();
  const cases: Array<[string, number, number, number]> = [
    ['32-bit keys', 5003, 32, 2 ** 32],
    ['few distinct keys (stability)', 7777, 12, 37],
    ['one key', 1, 32, 2 ** 32],
    ['16-bit keys, 625 chunks', 40000, 16, 2 ** 16],
  ];
  for (const [name, n, bits, range] of cases) {
    it(`equals the CPU radix sort: ${name}, ${n} pairs`, async () => {
      const rng = mulberry32(n);
      const keys = Uint32Array.from({ length: n }, () => Math.floor(rng.next() * range) >>> 0);
      const values = Uint32Array.from({ length: n }, (_, i) => i);
      const gpu = await radixSortGpu(device, library, keys, values, bits);
      const cpu = radixSortPairs(keys, values, bits);
      expect(Array.from(gpu.values)).toEqual(Array.from(cpu.values));
      expect(Array.from(gpu.keys)).toEqual(Array.from(cpu.keys));
    });
  }
});
