// Stable LSD radix sorts on the CPU: the reference of the GPU radix sort (same digits, same
// stability) and the depth ordering of the tile rasterizer.
// Inputs: u32 keys with u32 payloads, or float64 depths with candidate indices. Outputs: sorted
// copies. Invariant: stable, so equal keys keep their input order (ties by index when the input
// is in index order), exactly what the dense reference's comparator sort gives.

/** Bits per pass of the GPU sort and its CPU reference. */
export const RADIX_BITS = 8;

/** Number of passes needed to sort keys below 2^keyBits. */
export function radixPasses(keyBits: number): number {
  return Math.max(1, Math.ceil(keyBits / RADIX_BITS));
}

/** Sorts (key, value) pairs by the low `keyBits` bits of the key, stably; returns new arrays. */
export function radixSortPairs(keys: Uint32Array, values: Uint32Array, keyBits = 32): { keys: Uint32Array; values: Uint32Array } {
  let k = Uint32Array.from(keys);
  let v = Uint32Array.from(values);
  let k2 = new Uint32Array(k.length);
  let v2 = new Uint32Array(v.length);
  const bins = 1 << RADIX_BITS;
  const mask = bins - 1;
  const count = new Uint32Array(bins);
  for (let pass = 0; pass < radixPasses(keyBits); pass++) {
    const shift = pass * RADIX_BITS;
    count.fill(0);
    for (let i = 0; i < k.length; i++) count[(k[i] >>> shift) & mask]++;
    let sum = 0;
    for (let d = 0; d < bins; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < k.length; i++) {
      const dst = count[(k[i] >>> shift) & mask]++;
      k2[dst] = k[i];
      v2[dst] = v[i];
    }
    [k, k2] = [k2, k];
    [v, v2] = [v2, v];
  }
  return { keys: k, values: v };
}

/**
 * Indices `candidates` (ascending) ordered by depth[i] ascending, ties by index: an LSD sort on
 * the float64 bit patterns (depths are >= the near plane, so the bits order like the values),
 * 16 bits per pass. The key words are gathered once and move with the indices, so every pass
 * reads its keys in sequence instead of through the indices. Equals depthOrder() of the dense reference.
 */
export function depthOrderRadix(depth: Float64Array, candidates: Uint32Array): Uint32Array {
  const m = candidates.length;
  const words = new Uint32Array(depth.buffer, depth.byteOffset, depth.length * 2);
  let idx = Uint32Array.from(candidates);
  if (m === 0) return idx;
  // Little-endian: words[2i] is the low half of depth[i].
  let lo = new Uint32Array(m);
  let hi = new Uint32Array(m);
  for (let j = 0; j < m; j++) {
    lo[j] = words[idx[j] * 2];
    hi[j] = words[idx[j] * 2 + 1];
  }
  let idx2 = new Uint32Array(m);
  let lo2 = new Uint32Array(m);
  let hi2 = new Uint32Array(m);
  const count = new Uint32Array(65536);
  // Passes from the least significant 16 bits; a pass moves only the keys later passes read.
  for (let pass = 0; pass < 4; pass++) {
    const key = pass < 2 ? lo : hi;
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let j = 0; j < m; j++) count[(key[j] >>> shift) & 0xffff]++;
    if (count[(key[0] >>> shift) & 0xffff] === m) continue; // one digit: nothing moves
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let j = 0; j < m; j++) {
      const dst = count[(key[j] >>> shift) & 0xffff]++;
      idx2[dst] = idx[j];
      if (pass === 0) lo2[dst] = lo[j];
      if (pass < 3) hi2[dst] = hi[j];
    }
    [idx, idx2] = [idx2, idx];
    if (pass === 0) [lo, lo2] = [lo2, lo];
    if (pass < 3) [hi, hi2] = [hi2, hi];
  }
  return idx;
}
