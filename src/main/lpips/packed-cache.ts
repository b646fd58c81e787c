// The per-machine cache of the LPIPS workers' packed weights (issue 40 item 3, docs/PERFORMANCE.md
// "Cold paths"): packLpipsWeights reorders 2.5 M floats for the wasm kernel, about 70 ms of a cold
// `splatlab grade` on the event loop; a new process reads the packed floats from
// <lab home>/cache/lpips-packed instead. Input: verified LpipsWeights (lpips/weights.ts), or a
// weights folder checked short of its files (LpipsWeightFiles), and the cache folder. Output: the
// packed floats, in shared memory (what LpipsPool sends its workers), and their identity.
// Invariants: the file name (packedCacheKey) is the SHA-256 of the packing code's own text
// (packLpipsWeights, packConvWeights) and of each tensor's SHA-256 in packing order: the manifest's
// for a folder, which readLpipsWeights verifies the files against, or the floats' own, which are
// the files' little-endian bytes; so other weights or a changed packing never hit an old entry,
// and a hit needs neither the weight files' 10 MB read nor their hashes (a cold grade's). Each
// file ends with the SHA-256 of its floats (checked-file.ts), so a corrupted entry is a miss,
// packed again and rewritten; a cache that cannot be read or written only costs the packing.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LPIPS_TENSOR_ORDER, type LpipsWeights } from '../../shared/metrics/lpips-weights';
import { packConvWeights } from '../../shared/metrics/wasm/conv-kernel';
import { packLpipsWeights } from '../../shared/metrics/wasm/lpips-module';
import { floatBytes, readChecked, writeChecked } from '../io/checked-file';
import { labHome } from '../io/home';
import type { LpipsWeightFiles } from './weights';

/** Packed weights in shared memory and their identity (their cache key), as LpipsPool takes them. */
export interface PackedLpips {
  readonly packed: Float32Array;
  readonly id: string;
}

/** The cache folder in a lab home (default: this machine's, labHome()). */
export function packedCacheDir(home: string = labHome()): string {
  return join(home, 'cache', 'lpips-packed');
}

const floatKeys = new WeakMap<LpipsWeights, string>();

/** Each tensor's SHA-256 (hex) in LPIPS_TENSOR_ORDER: of its floats' bytes, or as the folder's manifest states it. */
function tensorDigests(source: LpipsWeights | LpipsWeightFiles): string[] {
  if ('manifest' in source) return LPIPS_TENSOR_ORDER.map((name) => source.manifest[name].sha256);
  return source.conv.flatMap((l, i) => [l.weight, l.bias, source.lin[i]].map((a) => createHash('sha256').update(floatBytes(a)).digest('hex')));
}

/** The cache file name (without its extension) of these weights' packing; also their identity (LpipsPool's fingerprint). */
export function packedCacheKey(source: LpipsWeights | LpipsWeightFiles): string {
  const known = 'manifest' in source ? undefined : floatKeys.get(source);
  if (known) return known;
  const h = createHash('sha256').update(packLpipsWeights.toString()).update(packConvWeights.toString());
  for (const d of tensorDigests(source)) h.update(d).update('\0');
  const key = h.digest('hex');
  if (!('manifest' in source)) floatKeys.set(source, key);
  return key;
}

function readEntry(path: string): Float32Array | null {
  const cached = readChecked(path, { shared: true });
  return cached && cached.byteLength % 4 === 0 ? new Float32Array(cached.buffer) : null;
}

/** The folder's weights packed, when the cache in `dir` holds them (verified); null on a miss. */
export function readPackedCache(files: LpipsWeightFiles, dir: string): PackedLpips | null {
  const id = packedCacheKey(files);
  const packed = readEntry(join(dir, `${id}.f32`));
  return packed ? { packed, id } : null;
}

/** packLpipsWeights(weights), from the cache in `dir` when it holds them, else packed and stored. */
export function cachedPackedWeights(weights: LpipsWeights, dir: string): Float32Array {
  const path = join(dir, `${packedCacheKey(weights)}.f32`);
  const cached = readEntry(path);
  if (cached) return cached;
  const plain = packLpipsWeights(weights);
  writeChecked(path, floatBytes(plain));
  const shared = new Float32Array(new SharedArrayBuffer(plain.byteLength));
  shared.set(plain);
  return shared;
}
