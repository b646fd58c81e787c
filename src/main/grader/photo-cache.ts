// The per-machine cache of the CPU grader's photo side for LPIPS (issue 40 item 3, docs/PERFORMANCE.md):
// a held-out photo's normalised LPIPS taps, as the wasm module lays them out (LpipsPhoto), kept in
// <lab home>/cache/lpips-photos so that a new process (a cold `splatlab grade`, a restarted
// server) computes only its renders' side. Input: the LPIPS pool and a photo. Output: LpipsPhoto.
// Invariants: the file name is the SHA-256 of everything the region depends on (the pool's
// fingerprint: module bytes and weights; the image size; the photo's float32 bytes), so a hit
// is bit for bit the region the pool would compute; a file of the wrong length is ignored and
// rewritten; files are written whole (writeFileAtomic) as soon as a region is computed, and a
// cache that cannot be read or written only costs the computation, never the grade.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { RgbImage } from '../../shared/image/image';
import { labHome } from '../io/home';
import { writeFileAtomic } from '../io/write-atomic';
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

/**
 * The file's floats when it holds exactly `floats` of them, else null. Read at once (a few MB from
 * the page cache), so the grade can send it to the LPIPS workers before its renders block the
 * thread, into shared memory, so that sending it copies nothing.
 */
function readRegion(path: string, floats: number): Float32Array | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    if (fstatSync(fd).size !== floats * 4) return null;
    const region = new Float32Array(new SharedArrayBuffer(floats * 4));
    const bytes = new Uint8Array(region.buffer);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) return null;
      at += n;
    }
    return region;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function writeRegion(dir: string, path: string, region: Float32Array): void {
  try {
    mkdirSync(dir, { recursive: true });
    // Not fsynced: a region lost to a power cut is computed again.
    writeFileAtomic(path, new Uint8Array(region.buffer, region.byteOffset, region.byteLength), { durable: false });
  } catch {
    // An unwritable cache (a read-only home) only means the next process computes the region too.
  }
}

export class LpipsPhotoCache {
  constructor(readonly dir: string) {}

  /** The photo's region from the cache, else computed on the pool and stored. */
  async photo(pool: LpipsPool, img: RgbImage): Promise<LpipsPhoto> {
    const path = join(this.dir, `${photoCacheKey(pool, img)}.f32`);
    const cached = readRegion(path, pool.regionFloats(img.width, img.height));
    if (cached) return { width: img.width, height: img.height, region: cached };
    const computed = await pool.photo(img);
    writeRegion(this.dir, path, computed.region);
    return computed;
  }
}
