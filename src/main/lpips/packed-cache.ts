// The per-machine cache of the LPIPS workers' packed weights (issue 40 item 3, docs/PERFORMANCE.md
// "Cold paths"): packLpipsWeights reorders 2.5 M floats for the wasm kernel, about 70 ms of a cold
// `splatlab grade` on the event loop; a new process reads the packed floats from
// <lab home>/cache/lpips-packed instead. Input: verified LpipsWeights (lpips/weights.ts) and the
// cache folder. Output: the packed floats, in shared memory (what LpipsPool sends its workers).
// Invariants: the file name is the SHA-256 of the weights' floats and of the packing code's own
// text (packLpipsWeights, packConvWeights), so other weights or a changed packing never hit an old
// entry; each file ends with the SHA-256 of its floats (checked-file.ts), so a corrupted entry is
// packed again and rewritten; a cache that cannot be read or written only costs the packing.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { LpipsWeights } from '../../shared/metrics/lpips-weights';
import { packConvWeights } from '../../shared/metrics/wasm/conv-kernel';
import { packLpipsWeights } from '../../shared/metrics/wasm/lpips-module';
import { floatBytes, readChecked, writeChecked } from '../io/checked-file';
import { labHome } from '../io/home';

/** The cache folder in a lab home (default: this machine's, labHome()). */
export function packedCacheDir(home: string = labHome()): string {
  return join(home, 'cache', 'lpips-packed');
}

/** The cache file name of these weights' packing. */
export function packedCacheKey(weights: LpipsWeights): string {
  const h = createHash('sha256').update(packLpipsWeights.toString()).update(packConvWeights.toString());
  for (const [i, l] of weights.conv.entries()) h.update(floatBytes(l.weight)).update(floatBytes(l.bias)).update(floatBytes(weights.lin[i]));
  return h.digest('hex');
}

/** packLpipsWeights(weights), from the cache in `dir` when it holds them, else packed and stored. */
export function cachedPackedWeights(weights: LpipsWeights, dir: string): Float32Array {
  const path = join(dir, `${packedCacheKey(weights)}.f32`);
  const cached = readChecked(path, { shared: true });
  if (cached && cached.byteLength % 4 === 0) return new Float32Array(cached.buffer);
  const plain = packLpipsWeights(weights);
  writeChecked(path, floatBytes(plain));
  const shared = new Float32Array(new SharedArrayBuffer(plain.byteLength));
  shared.set(plain);
  return shared;
}
