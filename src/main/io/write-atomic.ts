// Whole-or-nothing file writes: the data goes to a temporary file beside the target, then a rename
// (atomic on one file system), so a reader, a crash or a cancelled run never sees half a file under
// the real name. Inputs: a path and its new contents. Output: the file, replaced.
// Invariant: on a failed write the temporary file is removed and the target is as it was.
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';

export interface AtomicWriteOptions {
  /**
   * fsync before the rename (default true), so the new contents survive a power loss once the call
   * returns; bulk outputs that can be regenerated (dataset images) skip it.
   */
  durable?: boolean;
}

export function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
      if (opts.durable !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // The temporary file was never created.
    }
    throw err;
  }
}

/** writeFileAtomic on libuv's pool (a serving path: the event loop goes on meanwhile); the same file. */
export async function writeFileAtomicAsync(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    const fh = await open(tmp, 'w');
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      for (let off = 0; off < bytes.length; ) off += (await fh.write(bytes, off, bytes.length - off)).bytesWritten;
      if (opts.durable !== false) await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}
