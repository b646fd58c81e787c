// Cache files that prove their own integrity (issue 40 item 3, docs/PERFORMANCE.md "Cold paths"):
// the per-machine caches under <lab home>/cache (decoded task photos, packed LPIPS weights, photo
// LPIPS taps) store a payload followed by the SHA-256 of that payload. Input: a path (and the
// payload to write). Output: the payload, or null when the file is missing, too short, or its
// bytes do not hash to its trailer (a torn, truncated or bit-flipped entry).
// Invariant: a reader never returns bytes that differ from what the writer was given; files are
// written whole (writeFileAtomic), and a cache that cannot be written only costs a recomputation.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic, writeFileAtomicAsync } from './write-atomic';

const DIGEST = 32;

/**
 * The payload of a checked file, in shared memory when `shared` (so posting it to a worker copies
 * nothing), or null when it is missing, of another payload size than `bytes` (when given), or
 * fails its SHA-256 trailer.
 */
export function readChecked(path: string, opts: { bytes?: number; shared?: boolean } = {}): Uint8Array | null {
  const parts = readCheckedParts(path, opts.bytes === undefined ? null : [opts.bytes], opts.shared === true);
  return parts ? parts[0] : null;
}

/**
 * The payload of a checked file read straight into one buffer per part (each a buffer of its own,
 * at offset 0, so no part is copied again and posting one to a worker clones only it), or null as
 * readChecked. `sizes` null: one part, the whole payload. Fresh memory costs about 3 ms a MB on
 * the lab's machines (page faults), so the bytes are written once, where they stay.
 */
export function readCheckedParts(path: string, sizes: readonly number[] | null, shared = false): Uint8Array[] | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const lengths = sizes ?? [size - DIGEST];
    if (size < DIGEST || size !== lengths.reduce((n, b) => n + b, 0) + DIGEST) return null;
    const hash = createHash('sha256');
    const parts: Uint8Array[] = [];
    let at = 0;
    for (const n of lengths) {
      const part = new Uint8Array(shared ? new SharedArrayBuffer(n) : new ArrayBuffer(n));
      if (!readAll(fd, part, at)) return null;
      hash.update(part);
      parts.push(part);
      at += n;
    }
    const trailer = new Uint8Array(DIGEST);
    if (!readAll(fd, trailer, at)) return null;
    return hash.digest().equals(trailer) ? parts : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * readChecked off the event loop: the bytes are read (and their fresh pages first touched, the
 * larger part of a cold read here) on libuv's threads, so the main thread renders and measures
 * meanwhile; only the SHA-256 (about 1.7 GB/s with SHA extensions) runs on it. Same result as
 * readChecked.
 */
export async function readCheckedAsync(path: string, opts: { bytes?: number; shared?: boolean } = {}): Promise<Uint8Array | null> {
  let fh: FileHandle;
  try {
    fh = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = (await fh.stat()).size;
    const n = opts.bytes ?? size - DIGEST;
    if (size < DIGEST || size !== n + DIGEST) return null;
    const all = new Uint8Array(opts.shared === true ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(all, at, size - at, at);
      if (bytesRead === 0) return null;
      at += bytesRead;
    }
    // The payload is a view at offset 0 of the file's buffer (the trailer's 32 bytes ride along),
    // so no byte is copied twice.
    const payload = all.subarray(0, n);
    return createHash('sha256').update(payload).digest().equals(all.subarray(n)) ? payload : null;
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

function readAll(fd: number, into: Uint8Array, position: number): boolean {
  let at = 0;
  while (at < into.length) {
    const n = readSync(fd, into, at, into.length - at, position + at);
    if (n === 0) return false;
    at += n;
  }
  return true;
}

/** Writes payload + its SHA-256 whole (not fsynced: a lost entry is recomputed); false when it could not. */
export function writeChecked(path: string, payload: Uint8Array): boolean {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const out = new Uint8Array(payload.length + DIGEST);
    out.set(payload);
    out.set(createHash('sha256').update(payload).digest(), payload.length);
    writeFileAtomic(path, out, { durable: false });
    return true;
  } catch {
    // An unwritable cache (a read-only home) only means the next process computes it too.
    return false;
  }
}

/**
 * writeChecked off the event loop (a serving grade's photo cache, issue 38 item 1): the file is
 * written to a temporary name and renamed on libuv's pool; only the SHA-256 (about 1.7 GB/s)
 * runs on this thread. The same file as writeChecked; false when it could not be written.
 */
export async function writeCheckedAsync(path: string, payload: Uint8Array): Promise<boolean> {
  try {
    await mkdir(dirname(path), { recursive: true });
    const out = new Uint8Array(payload.length + DIGEST);
    out.set(payload);
    out.set(createHash('sha256').update(payload).digest(), payload.length);
    await writeFileAtomicAsync(path, out, { durable: false });
    return true;
  } catch {
    return false;
  }
}

/** The bytes of a float array (a view, no copy). */
export function floatBytes(a: Float32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}
