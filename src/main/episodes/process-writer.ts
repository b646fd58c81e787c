// Appends a page's process events (src/shared/env/process-log.ts) to the process log beside an
// episode's trajectory. Inputs: the trajectory path, events, the file opener (tests put a full
// disk there: src/main/env/log-faults.ts). Output: <log>.process.ndjson.
// Invariants: the file never holds more than MAX_PROCESS_EVENTS events or MAX_PROCESS_BYTES bytes:
// the batch that would pass a bound is cut and one `truncated` event ends the stream. A batch is
// written whole or not at all (issue 38 item 2, docs/SECURITY.md "Writes that cannot tear"): a
// short write is continued, a failed one is cut back to the last whole line and throws
// ProcessLogWriteError in plain words, so the heartbeat that carried it answers that it was not
// written (the page sends it again) and no line ever holds two records glued together. A file
// whose last line was torn by an older writer gets a line break before the next record. Appends
// are not fsynced: the stream is about what happened between calls, never needed to resume.
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { MAX_PROCESS_BYTES, MAX_PROCESS_EVENTS, processLine, processLogPath, type ProcessEvent } from '../../shared/env/process-log';
import { openLogFile, type LogFileOpener } from '../env/log-file';
import { plainFsError } from '../io/fs-errors';

export class ProcessLogWriteError extends Error {
  override name = 'ProcessLogWriteError';
}

interface StreamState {
  events: number;
  bytes: number;
  full: boolean;
  /** The file ends inside a line (torn by an older writer or a crash): start the next on a new one. */
  openLine: boolean;
}

const counts = new Map<string, StreamState>();

function state(path: string): StreamState {
  let s = counts.get(path);
  if (!s) {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    s = {
      events: text.split('\n').filter((l) => l.trim()).length,
      bytes: existsSync(path) ? statSync(path).size : 0,
      full: text.includes('"e":"truncated"'),
      openLine: text.length > 0 && !text.endsWith('\n'),
    };
    counts.set(path, s);
  }
  return s;
}

/** The file's size now (0 when it is missing): where a failed append cuts back to. */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Writes `data` at the end of `path` whole, or cuts the file back to `size` and throws. */
function appendWhole(path: string, size: number, data: Buffer, open: LogFileOpener): void {
  let file;
  try {
    file = open(path);
  } catch (error) {
    throw new ProcessLogWriteError(plainFsError(error));
  }
  try {
    let done = 0;
    while (done < data.length) done += file.writeSync(data.subarray(done));
  } catch (error) {
    try {
      file.truncate(size);
    } catch {
      // The cut failed too: the reader skips a torn tail and the next append starts a new line.
      const s = counts.get(path);
      if (s) s.openLine = true;
    }
    throw new ProcessLogWriteError(plainFsError(error));
  } finally {
    file.close();
  }
}

export function appendProcessEvents(logPath: string, events: readonly ProcessEvent[], open: LogFileOpener = openLogFile): void {
  const path = processLogPath(logPath);
  const s = state(path);
  if (s.full) return;
  let out = s.openLine ? '\n' : '';
  let added = 0;
  let full = false;
  for (const e of events) {
    const line = processLine(e);
    if (s.events + added + 1 >= MAX_PROCESS_EVENTS || s.bytes + Buffer.byteLength(out + line) + 64 > MAX_PROCESS_BYTES) {
      out += processLine({ t: e.t, e: 'truncated', d: { reason: 'process log size bound reached' } });
      full = true;
      break;
    }
    out += line;
    added += 1;
  }
  if (!out) return;
  const data = Buffer.from(out);
  const before = sizeOf(path);
  appendWhole(path, before, data, open);
  s.bytes = before + data.length;
  s.events += added;
  s.full = full;
  s.openLine = false;
}

/** Starts a fresh stream (a new episode over an old log's path): the old file and its counts go. */
export function restartProcessLog(logPath: string): void {
  const path = processLogPath(logPath);
  counts.delete(path);
  rmSync(path, { force: true });
}
