// Fault injection under the trajectory log writer, for tests (docs/SECURITY.md, "Writes that
// cannot tear"): a disk of `capacity` bytes shared by every file opened through it. A write that
// would pass the capacity writes what fits (a short write, as a full disk does) and the next one
// fails with ENOSPC; truncating gives the bytes back; heal() frees the disk. Inputs: the capacity
// (byte k of a sweep) and the real opener. Output: a LogFileOpener. Invariant: the bytes that
// reach the real file are exactly the ones a full disk would have let through.
import { openLogFile, type LogFile, type LogFileOpener } from './log-file';

export function faultError(code: string, words: string, syscall: string): Error {
  return Object.assign(new Error(`${code}: ${words}, ${syscall}`), { code, syscall });
}

export class FaultyDisk {
  /** Bytes on the disk now, over every file opened through it (what they held before included). */
  used = 0;
  /** Failed or short writes so far. */
  faults = 0;

  constructor(
    /** Bytes the disk holds; null: unlimited. */
    public capacity: number | null,
    /** Make every flush fail too (an I/O error after the bytes were accepted). */
    public failSync = false,
  ) {}

  /** Space was freed: every later write succeeds. */
  heal(): void {
    this.capacity = null;
    this.failSync = false;
  }

  opener(base: LogFileOpener = openLogFile, startSize: (path: string) => number = () => 0): LogFileOpener {
    return (path) => {
      const file = base(path);
      let size = startSize(path);
      this.used += size;
      const room = (): number => (this.capacity === null ? Infinity : Math.max(0, this.capacity - this.used));
      const admit = (data: Buffer): Buffer => {
        const free = room();
        if (free >= data.length) return data;
        this.faults += 1;
        if (free === 0) throw faultError('ENOSPC', 'no space left on device', 'write');
        return data.subarray(0, free);
      };
      const wrote = (n: number): number => {
        size += n;
        this.used += n;
        return n;
      };
      const syncFault = (): void => {
        if (!this.failSync) return;
        this.faults += 1;
        throw faultError('EIO', 'i/o error', 'fsync');
      };
      const faulty: LogFile = {
        write: async (data) => wrote(await file.write(admit(data))),
        writeSync: (data) => wrote(file.writeSync(admit(data))),
        sync: async () => {
          syncFault();
          await file.sync();
        },
        syncSync: () => {
          syncFault();
          file.syncSync();
        },
        truncate: (to) => {
          file.truncate(to);
          this.used -= size - to;
          size = to;
        },
        cut: async (to) => {
          await file.cut(to);
          this.used -= size - to;
          size = to;
        },
        close: () => file.close(),
      };
      return faulty;
    };
  }
}
