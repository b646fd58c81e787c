// Trajectory logs (docs/DESIGN.md section 6): JSONL with a header line, one record per call (step 0 is
// the reset observation), `hidden` records carrying deferred grades (merged into their step when
// read), `time` records (pauses, interruptions; src/shared/env/time.ts) and a closing `end` record.
// Each record is written whole and flushed (fsync) before the write resolves, so a crash loses no
// completed call; a write that fails (a full disk) cuts the file back to its last whole record and
// throws LogWriteError, so no record is ever torn (docs/SECURITY.md, "Writes that cannot tear").
// Inputs: records from the envs; the file underneath (./log-file.ts, a fault-injecting one in
// tests). Outputs: the file; readTrajectory parses it back, tolerating a truncated last line
// (reported, never fatal). Invariant: every complete line is one JSON value, and a line a torn
// write left behind never hides the record written after it.
import { close, closeSync, existsSync, fsync, fsyncSync, ftruncate, open as openFd, openSync, readFileSync, ftruncateSync } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { plainFsError } from '../io/fs-errors';
import { openLogFile, type LogFile, type LogFileOpener } from './log-file';
import { LogLock } from './log-lock';
import { EndRecordSchema, HiddenRecordSchema, StepRecordSchema, TimeRecordSchema, TrajectoryHeaderSchema, type EndRecord, type HiddenRecord, type StepRecord, type TimeRecord, type TrajectoryHeader } from '../../shared/env/trajectory-schema';

export { TRAJECTORY_FORMAT } from '../../shared/env/trajectory-schema';
export type { EndRecord, HiddenMetrics, HiddenRecord, StepRecord, TimeRecord, TrajectoryHeader } from '../../shared/env/trajectory-schema';

export interface Trajectory {
  header: TrajectoryHeader | null;
  steps: StepRecord[];
  /** Pauses, interruptions and attention changes, in file order (src/shared/env/time.ts reads them). */
  times: TimeRecord[];
  end: EndRecord | null;
  /** A partial trailing line (no newline, or not JSON) was ignored. */
  truncated: boolean;
  /** Byte length of the complete, parsed prefix (where an append must continue). */
  validBytes: number;
  /** 1-based numbers of complete lines that were not valid records (never expected). */
  badLines: number[];
  /**
   * 1-based numbers of lines that began with a write cut short (an older writer on a full disk)
   * and went on with a whole record: the record is read, the torn start is not.
   */
  torn: number[];
}

/** Most places a torn line is tried for the record glued after it. */
const MAX_SALVAGE_TRIES = 64;

/** The whole record that follows a torn write on one line, or undefined. */
function salvage(line: string): unknown {
  let tries = 0;
  for (let i = line.indexOf('{"', 1); i > 0 && tries < MAX_SALVAGE_TRIES; i = line.indexOf('{"', i + 1)) {
    if (!line.startsWith('{"step":', i) && !line.startsWith('{"type":', i)) continue;
    tries += 1;
    try {
      const value = JSON.parse(line.slice(i)) as unknown;
      if (isObject(value)) return value;
    } catch {
      // not the start of the glued record: try the next one
    }
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseTrajectory(content: string): Trajectory {
  const out: Trajectory = { header: null, steps: [], times: [], end: null, truncated: false, validBytes: 0, badLines: [], torn: [] };
  let offset = 0;
  let lineNo = 0;
  let lineBytes = 0; // UTF-8 bytes of the complete lines so far: one pass, linear in the file
  const byStep = new Map<number, StepRecord>(); // the latest record of each step (hidden records' target)
  while (offset < content.length) {
    const nl = content.indexOf('\n', offset);
    const complete = nl >= 0;
    const line = content.slice(offset, complete ? nl : content.length);
    lineNo += 1;
    let value: unknown;
    try {
      value = line.trim() ? (JSON.parse(line) as unknown) : undefined;
    } catch {
      value = undefined;
      if (!complete) {
        out.truncated = true;
        break;
      }
    }
    if (!complete) {
      // A final line without its newline is a write cut short, even when it happens to parse.
      out.truncated = true;
      break;
    }
    offset = nl + 1;
    lineBytes += Buffer.byteLength(line, 'utf8') + 1;
    if (value === undefined && line.trim()) {
      value = salvage(line);
      if (value !== undefined) out.torn.push(lineNo);
    }
    if (value === undefined) {
      if (line.trim()) out.badLines.push(lineNo);
    } else if (isObject(value) && value.type === 'header') {
      const header = TrajectoryHeaderSchema.safeParse(value);
      if (header.success) out.header = header.data;
      else out.badLines.push(lineNo);
    } else if (isObject(value) && value.type === 'hidden') {
      // A deferred grade: merged into its step (written before it), so readers see one shape.
      const hidden = HiddenRecordSchema.safeParse(value);
      const target = hidden.success ? byStep.get(hidden.data.step) : undefined;
      if (hidden.success && target) target.hidden = hidden.data.hidden;
      else out.badLines.push(lineNo);
    } else if (isObject(value) && value.type === 'time') {
      const time = TimeRecordSchema.safeParse(value);
      if (time.success) out.times.push(time.data);
      else out.badLines.push(lineNo);
    } else if (isObject(value) && value.type === 'end') {
      const end = EndRecordSchema.safeParse(value);
      if (end.success) out.end = end.data;
      else out.badLines.push(lineNo);
    } else {
      const step = StepRecordSchema.safeParse(value);
      if (step.success) {
        out.steps.push(step.data);
        byStep.set(step.data.step, step.data);
      } else out.badLines.push(lineNo);
    }
    out.validBytes = lineBytes;
  }
  return out;
}

export function readTrajectory(path: string): Trajectory {
  return parseTrajectory(readFileSync(path, 'utf8'));
}

/** A log write that failed: the file was cut back to its last whole record, so nothing of it is kept. */
export class LogWriteError extends Error {
  override name = 'LogWriteError';
  constructor(
    /** What went wrong, in plain words ("disk full: no space left on device"). */
    readonly words: string,
  ) {
    super(`${words}; nothing was charged`);
  }
}

export type TrajectoryRecord = TrajectoryHeader | StepRecord | HiddenRecord | TimeRecord | EndRecord;

/**
 * Appends one JSON line per record, each whole and flushed before it resolves. Records are
 * written one after another (a step and a deferred grade never overlap), so the writer always
 * knows the end of the last whole record and cuts back to it when a write or flush fails.
 */
/** Creates `path` empty (or empties it), as openSync(path, 'w') does, on libuv's pool. */
async function truncate(path: string): Promise<void> {
  await (await openFile(path, 'w')).close();
}

/**
 * Cuts `path` back to `size` bytes and flushes the cut, on libuv's pool (a resume off the event
 * loop). node:fs's own calls, as resume()'s, so a test that watches them sees both.
 */
async function cutFile(path: string, size: number): Promise<void> {
  const fd = await promisify(openFd)(path, 'r+');
  try {
    await promisify(ftruncate)(fd, size);
    await promisify(fsync)(fd);
  } finally {
    await promisify(close)(fd);
  }
}

export class TrajectoryWriter {
  private file: LogFile | null;
  /** Bytes of whole, flushed records: where a failed write is cut back to. */
  private size: number;
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  /** Set when a cut-back itself failed: nothing more may be written (the reader drops the tail). */
  private broken: string | null = null;

  private constructor(
    file: LogFile,
    readonly path: string,
    private readonly lock: LogLock,
    size: number,
  ) {
    this.file = file;
    this.size = size;
  }

  /**
   * A new log (replacing any file at `path`) starting with its header and `first` (the reset's
   * step 0); the log's one writer. When they cannot be written the log is released and the error
   * thrown, so a start that fails holds nothing.
   */
  static create(path: string, header: TrajectoryHeader, first?: StepRecord, open: LogFileOpener = openLogFile): TrajectoryWriter {
    const lock = LogLock.acquire(path);
    let w: TrajectoryWriter | null = null;
    try {
      closeSync(openSync(path, 'w'));
      w = new TrajectoryWriter(open(path), path, lock, 0);
      w.write(header);
      if (first) w.write(first);
      return w;
    } catch (error) {
      if (w) w.close();
      else lock.release();
      throw error;
    }
  }

  /**
   * create(), with the header and `first` written and flushed off the event loop (libuv's thread
   * pool, as append()): a start does not hold the other clients for an fsync (issue 29 item 2).
   */
  static async start(path: string, header: TrajectoryHeader, first?: StepRecord, open: LogFileOpener = openLogFile): Promise<TrajectoryWriter> {
    // The lock (with its owner, in one step) and the emptied log, off the event loop too (issue 38 item 1).
    const lock = await LogLock.acquireAsync(path);
    let w: TrajectoryWriter | null = null;
    try {
      await truncate(path);
      w = new TrajectoryWriter(open(path), path, lock, 0);
      await w.appendLine(header);
      if (first) await w.appendLine(first);
      return w;
    } catch (error) {
      if (w) w.close();
      else lock.release();
      throw error;
    }
  }

  /**
   * Continues an existing log after its last complete line (a cut-off line is dropped). Refused
   * (LogInUseError) while another writer holds the log, before anything is truncated.
   */
  static resume(path: string, validBytes: number, open: LogFileOpener = openLogFile): TrajectoryWriter {
    if (!existsSync(path)) throw new Error(`cannot resume: ${path} does not exist`);
    const lock = LogLock.acquire(path);
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, validBytes);
    fsyncSync(fd);
    closeSync(fd);
    return new TrajectoryWriter(open(path), path, lock, validBytes);
  }

  /**
   * resume() off the event loop (an episode resumed while the lab serves others, issue 38 item 2):
   * the lock taken, the cut-off line dropped and the cut flushed on libuv's pool.
   */
  static async resumeAsync(path: string, validBytes: number, open: LogFileOpener = openLogFile): Promise<TrajectoryWriter> {
    if (!existsSync(path)) throw new Error(`cannot resume: ${path} does not exist`);
    const lock = await LogLock.acquireAsync(path);
    try {
      await cutFile(path, validBytes);
      return new TrajectoryWriter(open(path), path, lock, validBytes);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Bytes of whole records in the file. */
  get bytes(): number {
    return this.size;
  }

  /**
   * Writes one record synchronously (create()'s header; the search and relation kinds). Must not overlap append(): every
   * caller writes it once the appends before it have resolved.
   */
  write(record: TrajectoryRecord): void {
    const file = this.usable();
    if (this.pending > 0) throw new Error(`trajectory ${this.path}: a synchronous write overlapped an append`);
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    try {
      for (let done = 0; done < line.length; ) done += file.writeSync(line.subarray(done));
      file.syncSync();
    } catch (error) {
      throw this.cutBack(file, error);
    }
    this.size += line.length;
  }

  /**
   * The same as write(), off the event loop: the write and the fsync run on libuv's thread pool,
   * so episodes of other clients go on meanwhile; resolves once the line is on disk. Appends run
   * one after another in call order; a failed one rejects with LogWriteError and leaves the
   * file as it was before it.
   */
  append(record: TrajectoryRecord): Promise<void> {
    return this.appendLine(record);
  }

  private appendLine(record: TrajectoryRecord): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    this.pending += 1;
    const run = this.tail.then(async () => {
      const file = this.usable();
      try {
        for (let done = 0; done < line.length; ) done += await file.write(line.subarray(done));
        await file.sync();
      } catch (error) {
        throw await this.cutBackAsync(file, error);
      }
      this.size += line.length;
    });
    const settled = run.finally(() => (this.pending -= 1));
    this.tail = settled.catch(() => undefined);
    return settled;
  }

  close(): void {
    this.file?.close();
    this.file = null;
    this.lock.release();
  }

  private usable(): LogFile {
    if (this.file === null) throw new Error(`trajectory ${this.path} is closed`);
    if (this.broken !== null) throw new LogWriteError(this.broken);
    return this.file;
  }

  /** cutBack on libuv's pool (a failed append: the event loop serves others meanwhile). */
  private async cutBackAsync(file: LogFile, error: unknown): Promise<LogWriteError> {
    const words = plainFsError(error);
    try {
      await file.cut(this.size);
    } catch {
      this.broken = words;
    }
    return new LogWriteError(words);
  }

  /** Cuts the file back to its last whole record; the error the caller throws. */
  private cutBack(file: LogFile, error: unknown): LogWriteError {
    const words = plainFsError(error);
    try {
      file.truncate(this.size);
    } catch {
      this.broken = words;
    }
    return new LogWriteError(words);
  }
}
