// The file under a trajectory log writer (docs/SECURITY.md, "Writes that cannot tear"): append,
// flush and cut back. Production opens a real append-mode descriptor; tests put a fault-injecting
// file here (./log-faults.ts) to fail at any byte. Inputs: bytes. Outputs: bytes written (a write
// may be short, as on a full disk). Invariant: every method is one plain file-system operation,
// so the writer above decides what a whole record is and where to cut back to.
import { closeSync, fsync, fsyncSync, ftruncate, ftruncateSync, openSync, write, writeSync } from 'node:fs';

export interface LogFile {
  /** Appends bytes at the end of the file; resolves with how many were written (maybe fewer). */
  write(data: Buffer): Promise<number>;
  writeSync(data: Buffer): number;
  /** Flushes what was written to the disk. */
  sync(): Promise<void>;
  syncSync(): void;
  /** Cuts the file back to `size` bytes and flushes the cut. */
  truncate(size: number): void;
  /** truncate() on libuv's pool (an async append's cut-back). */
  cut(size: number): Promise<void>;
  close(): void;
}

/** Opens a log file for appending (it must exist). */
export type LogFileOpener = (path: string) => LogFile;

export const openLogFile: LogFileOpener = (path) => {
  const fd = openSync(path, 'a');
  return {
    write: (data) => new Promise((resolve, reject) => write(fd, data, 0, data.length, null, (err, n) => (err ? reject(err) : resolve(n)))),
    writeSync: (data) => writeSync(fd, data),
    sync: () => new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve()))),
    syncSync: () => fsyncSync(fd),
    truncate: (size) => {
      ftruncateSync(fd, size);
      fsyncSync(fd);
    },
    cut: (size) => new Promise((resolve, reject) => ftruncate(fd, size, (err) => (err ? reject(err) : fsync(fd, (e) => (e ? reject(e) : resolve()))))),
    close: () => closeSync(fd),
  };
};
