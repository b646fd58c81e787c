// Appends a page's process events (src/shared/env/process-log.ts) to the process log beside an
// episode's trajectory. Inputs: the trajectory path, events. Output: <log>.process.ndjson.
// Invariant: the file never holds more than MAX_PROCESS_EVENTS events or MAX_PROCESS_BYTES bytes:
// the batch that would pass a bound is cut and one `truncated` event ends the stream. Appends are
// plain (no fsync): the stream is about what happened between calls, never needed to resume.
import { appendFileSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { MAX_PROCESS_BYTES, MAX_PROCESS_EVENTS, processLine, processLogPath, type ProcessEvent } from '../../shared/env/process-log';

const counts = new Map<string, { events: number; bytes: number; full: boolean }>();

function state(path: string): { events: number; bytes: number; full: boolean } {
  let s = counts.get(path);
  if (!s) {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    s = { events: text.split('\n').filter((l) => l.trim()).length, bytes: existsSync(path) ? statSync(path).size : 0, full: text.includes('"e":"truncated"') };
    counts.set(path, s);
  }
  return s;
}

export function appendProcessEvents(logPath: string, events: readonly ProcessEvent[]): void {
  const path = processLogPath(logPath);
  const s = state(path);
  if (s.full) return;
  let out = '';
  for (const e of events) {
    const line = processLine(e);
    if (s.events + 1 >= MAX_PROCESS_EVENTS || s.bytes + Buffer.byteLength(out + line) + 64 > MAX_PROCESS_BYTES) {
      out += processLine({ t: e.t, e: 'truncated', d: { reason: 'process log size bound reached' } });
      s.full = true;
      break;
    }
    out += line;
    s.events += 1;
  }
  if (!out) return;
  try {
    appendFileSync(path, out);
    s.bytes += Buffer.byteLength(out);
  } catch {
    // Best effort: the trajectory is the record; a failed append loses only these events.
  }
}

/** Starts a fresh stream (a new episode over an old log's path): the old file and its counts go. */
export function restartProcessLog(logPath: string): void {
  const path = processLogPath(logPath);
  counts.delete(path);
  rmSync(path, { force: true });
}
