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
// The lab's heartbeat appends with appendProcessEventsAsync (issue 38 item 2): the file is read,
// written and cut back on libuv's pool, appends to one stream one after another, so a beat holds
// no other client; the CLI's and the runners' appendProcessEvents does the same on this thread.
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { MAX_PROCESS_BYTES, MAX_PROCESS_EVENTS, processLine, processLogPath, type ProcessEvent } from '../../shared/env/process-log';
import { openLogFile, type LogFileOpener } from '../env/log-file';
import { plainFsError } from '../io/fs-errors';
import { KeyTurns } from '../io/key-turns';

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

/** The counts of a stream's file as it stands (its text; '' when it does not exist). */
function stateOf(text: string, bytes: number): StreamState {
  return {
    events: text.split('\n').filter((l) => l.trim()).length,
    bytes,
    full: text.includes('"e":"truncated"'),
    openLine: text.length > 0 && !text.endsWith('\n'),
  };
}

function state(path: string): StreamState {
  let s = counts.get(path);
  if (!s) {
    s = stateOf(existsSync(path) ? readFileSync(path, 'utf8') : '', existsSync(path) ? statSync(path).size : 0);
    counts.set(path, s);
  }
  return s;
}

/** state() read off the event loop (the first beat after a restart reads what the stream holds). */
async function stateAsync(path: string): Promise<StreamState> {
  let s = counts.get(path);
  if (!s) {
    const text = await readFile(path, 'utf8').catch(() => '');
    const fresh = stateOf(text, await sizeOfAsync(path));
    // Another append may have counted the file meanwhile: its counts are the newer ones.
    s = counts.get(path) ?? fresh;
    counts.set(path, s);
  }
  return s;
}

async function sizeOfAsync(path: string): Promise<number> {
  return (await stat(path).catch(() => null))?.size ?? 0;
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

/** appendWhole on libuv's pool: the write continued and a failed one cut back off the event loop. */
async function appendWholeAsync(path: string, size: number, data: Buffer, open: LogFileOpener): Promise<void> {
  let file;
  try {
    file = open(path);
  } catch (error) {
    throw new ProcessLogWriteError(plainFsError(error));
  }
  try {
    let done = 0;
    while (done < data.length) done += await file.write(data.subarray(done));
  } catch (error) {
    try {
      await file.cut(size);
    } catch {
      const s = counts.get(path);
      if (s) s.openLine = true;
    }
    throw new ProcessLogWriteError(plainFsError(error));
  } finally {
    file.close();
  }
}

/** The bytes a batch adds to a stream (bounded; null when nothing is to be written). */
function batchOf(s: StreamState, events: readonly ProcessEvent[]): { data: Buffer; added: number; full: boolean } | null {
  if (s.full) return null;
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
  return out ? { data: Buffer.from(out), added, full } : null;
}

/** The stream's counts after a batch was written whole at `before`. */
function written(s: StreamState, before: number, batch: { data: Buffer; added: number; full: boolean }): void {
  s.bytes = before + batch.data.length;
  s.events += batch.added;
  s.full = batch.full;
  s.openLine = false;
}

export function appendProcessEvents(logPath: string, events: readonly ProcessEvent[], open: LogFileOpener = openLogFile): void {
  const path = processLogPath(logPath);
  const s = state(path);
  const batch = batchOf(s, events);
  if (!batch) return;
  const before = sizeOf(path);
  appendWhole(path, before, batch.data, open);
  written(s, before, batch);
}

/** Each stream's async appends, one at a time in call order. */
const appends = new KeyTurns();

/**
 * appendProcessEvents off the event loop (the lab's heartbeat): resolves once the batch is in the
 * file whole, rejects with ProcessLogWriteError (the file cut back) when it could not be written.
 */
export function appendProcessEventsAsync(logPath: string, events: readonly ProcessEvent[], open: LogFileOpener = openLogFile): Promise<void> {
  const path = processLogPath(logPath);
  return appends.run(path, async () => {
    const s = await stateAsync(path);
    const batch = batchOf(s, events);
    if (!batch) return;
    const before = await sizeOfAsync(path);
    await appendWholeAsync(path, before, batch.data, open);
    written(s, before, batch);
  });
}

/** Starts a fresh stream (a new episode over an old log's path): the old file and its counts go. */
export function restartProcessLog(logPath: string): void {
  const path = processLogPath(logPath);
  counts.delete(path);
  rmSync(path, { force: true });
}
