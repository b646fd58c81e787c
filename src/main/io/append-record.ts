// Durable one-line appends for journals (docs/STUDIES.md, "The participant journal"): a record is
// one JSON line written with a single write and fsync'd before the call returns, so a caller that
// acknowledges after it returns never acknowledges a record a crash can lose. A crash mid-write can
// leave a torn last line; the next append starts on a fresh line so two records never glue
// together, and readers skip the torn line (it was never acknowledged).
// Inputs: a file path and a record's JSON text. Output: the line, on disk.
import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';

export function appendRecordLine(path: string, line: string): void {
  if (line.includes('\n')) throw new Error('a journal record must be one line');
  const fd = openSync(path, 'a+');
  try {
    const size = fstatSync(fd).size;
    let lead = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) lead = '\n';
    }
    const bytes = Buffer.from(`${lead}${line}\n`);
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
