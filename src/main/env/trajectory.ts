// Trajectory logs (docs/DESIGN.md section 6): JSONL with a header line, one record per call (step 0 is
// the reset observation), `hidden` records carrying deferred grades (merged into their step when
// read), `time` records (pauses, interruptions; src/shared/env/time.ts) and a closing `end` record. Records are written with one synchronous
// write plus fsync each, so a crash loses no completed call.
// Inputs: records from SplatEnv. Outputs: the file; readTrajectory parses it back, tolerating
// a truncated last line (reported, never fatal). Invariant: every complete line is one JSON value.
import { closeSync, existsSync, fsync, fsyncSync, openSync, readFileSync, ftruncateSync, write, writeSync } from 'node:fs';
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
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseTrajectory(content: string): Trajectory {
  const out: Trajectory = { header: null, steps: [], times: [], end: null, truncated: false, validBytes: 0, badLines: [] };
  let offset = 0;
  let lineNo = 0;
  let lineBytes = 0; // UTF-8 bytes of the complete lines so far: one pass, linear in the file
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
    if (value === undefined) {
      if (line.trim()) out.badLines.push(lineNo);
    } else if (isObject(value) && value.type === 'header') {
      const header = TrajectoryHeaderSchema.safeParse(value);
      if (header.success) out.header = header.data;
      else out.badLines.push(lineNo);
    } else if (isObject(value) && value.type === 'hidden') {
      // A deferred grade: merged into its step (written before it), so readers see one shape.
      const hidden = HiddenRecordSchema.safeParse(value);
      const target = hidden.success ? out.steps.findLast((s) => s.step === hidden.data.step) : undefined;
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
      if (step.success) out.steps.push(step.data);
      else out.badLines.push(lineNo);
    }
    out.validBytes = lineBytes;
  }
  return out;
}

export function readTrajectory(path: string): Trajectory {
  return parseTrajectory(readFileSync(path, 'utf8'));
}

/** Appends one JSON line per record; each write is flushed to disk before it returns. */
export class TrajectoryWriter {
  private constructor(
    private fd: number | null,
    readonly path: string,
    private readonly lock: LogLock,
  ) {}

  /** A new log (replacing any file at `path`) starting with its header; the log's one writer. */
  static create(path: string, header: TrajectoryHeader): TrajectoryWriter {
    const lock = LogLock.acquire(path);
    // Truncate, then write through an append-mode descriptor: concurrent appends (a step and a
    // deferred grade) each land whole at the end of the file.
    closeSync(openSync(path, 'w'));
    const w = new TrajectoryWriter(openSync(path, 'a'), path, lock);
    w.write(header);
    return w;
  }

  /**
   * Continues an existing log after its last complete line (a cut-off line is dropped). Refused
   * (LogInUseError) while another writer holds the log, before anything is truncated.
   */
  static resume(path: string, validBytes: number): TrajectoryWriter {
    if (!existsSync(path)) throw new Error(`cannot resume: ${path} does not exist`);
    const lock = LogLock.acquire(path);
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, validBytes);
    fsyncSync(fd);
    closeSync(fd);
    return new TrajectoryWriter(openSync(path, 'a'), path, lock);
  }

  write(record: TrajectoryHeader | StepRecord | HiddenRecord | TimeRecord | EndRecord): void {
    if (this.fd === null) throw new Error(`trajectory ${this.path} is closed`);
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    fsyncSync(this.fd);
  }

  /**
   * The same as write(), off the event loop: the write and the fsync run on libuv's thread pool,
   * so episodes of other clients go on meanwhile; resolves once the line is on disk. One write
   * call per line on an append-mode fd, so concurrent appends never interleave within a line.
   */
  append(record: StepRecord | HiddenRecord | TimeRecord): Promise<void> {
    const fd = this.fd;
    if (fd === null) return Promise.reject(new Error(`trajectory ${this.path} is closed`));
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    return new Promise((resolve, reject) => {
      write(fd, line, 0, line.length, null, (err) => {
        if (err) return reject(err);
        fsync(fd, (err2) => (err2 ? reject(err2) : resolve()));
      });
    });
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.lock.release();
  }
}
