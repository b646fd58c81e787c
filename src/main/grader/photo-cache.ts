// The per-machine cache of the CPU grader's photo side for LPIPS (issue 40 item 3, docs/PERFORMANCE.md):
// a held-out photo's normalised LPIPS taps, as the wasm module lays them out (LpipsPhoto), kept in
// <lab home>/cache/lpips-photos so that a new process (a cold `splatlab grade`, a restarted
// server) computes only its renders' side. Input: the LPIPS pool and a photo. Output: LpipsPhoto.
// Invariants: the file name is the SHA-256 of everything the region depends on (the pool's
// fingerprint: module bytes and weights; the image size; the photo's float32 bytes), so a hit
// is bit for bit the region the pool would compute; each file ends with the SHA-256 of its floats
// (checked-file.ts), so a file of the wrong length or with corrupted bytes is ignored and
// rewritten; files are written whole as soon as a region is computed, and a cache that cannot be
// read or written only costs the computation, never the grade.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { RgbImage } from '../../shared/image/image';
import { floatBytes, readCheckedAsync, writeCheckedAsync } from '../io/checked-file';
import { labHome } from '../io/home';
import type { LpipsPhoto, LpipsPool } from '../lpips/pool';

/** The cache folder in a lab home (default: this machine's, labHome()). */
export function photoCacheDir(home: string = labHome()): string {
  return join(home, 'cache', 'lpips-photos');
}

/** The cache file name of a photo's region under this pool. */
export function photoCacheKey(pool: LpipsPool, img: RgbImage): string {
  const bytes = new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  return createHash('sha256').update(pool.fingerprint(img.width, img.height)).update(`${img.width}x${img.height}`).update(bytes).digest('hex');
}

export class LpipsPhotoCache {
  constructor(readonly dir: string) {}

  /** The photo's region from the cache, else computed on the pool and stored. */
  async photo(pool: LpipsPool, img: RgbImage): Promise<LpipsPhoto> {
    const path = join(this.dir, `${photoCacheKey(pool, img)}.f32`);
    // In shared memory: sending it to the LPIPS workers copies nothing. Read off the event loop, so
    // the grade renders and measures SSIM while the taps arrive (a cold grade's main thread).
    const cached = await readCheckedAsync(path, { bytes: pool.regionFloats(img.width, img.height) * 4, shared: true });
    if (cached) return { width: img.width, height: img.height, region: new Float32Array(cached.buffer, cached.byteOffset, cached.length / 4) };
    const computed = await pool.photo(img);
    // Written off the event loop too (the grade's other clients go on meanwhile).
    await writeCheckedAsync(path, floatBytes(computed.region));
    return computed;
  }
}
