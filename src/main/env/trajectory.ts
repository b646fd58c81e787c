// Trajectory logs (DESIGN.md section 6): JSONL with a header line, one record per call (step 0 is
// the reset observation) and a closing `end` record. Records are written with one synchronous
// write plus fsync each, so a crash loses no completed call.
// Inputs: records from SplatEnv. Outputs: the file; readTrajectory parses it back, tolerating
// a truncated last line (reported, never fatal). Invariant: every complete line is one JSON value.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, ftruncateSync, writeSync } from 'node:fs';
import type { CompactGaussian } from '../../shared/env/scene';

export const TRAJECTORY_FORMAT = 1;

export interface TrajectoryHeader {
  type: 'header';
  task: string;
  protocol: 'matched' | 'free' | 'agent';
  player: string;
  versions: { splatlab: string; format: number; node: string };
  started: string; // ISO time
  kind?: string;
  budgets?: { max_gaussians: number; max_tool_calls: number; max_renders: number };
}

/** Held-out metrics of the scene after a call; never shown to the player. */
export interface HiddenMetrics {
  score: number;
  psnr: number;
  ssim: number;
  iou: number;
  lpips: number | null;
}

export interface StepRecord {
  step: number; // 0 = reset (first observation), then one per charged call
  tool: string;
  args: unknown;
  text: string;
  t: string; // ISO time the call arrived
  ms: number; // wall time spent on the call, grading excluded
  hidden?: HiddenMetrics;
  state?: CompactGaussian[];
  done?: boolean;
}

export interface EndRecord {
  type: 'end';
  reason: 'submit' | 'auto';
  score: number;
  reward: number;
  training_reward: number;
  psnr: number;
  ssim: number;
  iou: number;
  lpips: number | null;
  lpips_missing: boolean;
  calls_used: number;
  renders_used: number;
  gaussians: number;
  t: string;
}

export interface Trajectory {
  header: TrajectoryHeader | null;
  steps: StepRecord[];
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
  const out: Trajectory = { header: null, steps: [], end: null, truncated: false, validBytes: 0, badLines: [] };
  let offset = 0;
  let lineNo = 0;
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
    if (value === undefined) {
      if (line.trim()) out.badLines.push(lineNo);
    } else if (isObject(value) && value.type === 'header') out.header = value as unknown as TrajectoryHeader;
    else if (isObject(value) && value.type === 'end') out.end = value as unknown as EndRecord;
    else if (isObject(value) && typeof value.step === 'number' && typeof value.tool === 'string') out.steps.push(value as unknown as StepRecord);
    else out.badLines.push(lineNo);
    out.validBytes = Buffer.byteLength(content.slice(0, offset), 'utf8');
  }
  return out;
}

export function readTrajectory(path: string): Trajectory {
  return parseTrajectory(readFileSync(path, 'utf8'));
}

/** Appends one JSON line per record; each write is flushed to disk before it returns. */
export class TrajectoryWriter {
  private constructor(private fd: number | null, readonly path: string) {}

  /** A new log (replacing any file at `path`) starting with its header. */
  static create(path: string, header: TrajectoryHeader): TrajectoryWriter {
    const w = new TrajectoryWriter(openSync(path, 'w'), path);
    w.write(header);
    return w;
  }

  /** Continues an existing log after its last complete line (a cut-off line is dropped). */
  static resume(path: string, validBytes: number): TrajectoryWriter {
    if (!existsSync(path)) throw new Error(`cannot resume: ${path} does not exist`);
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, validBytes);
    fsyncSync(fd);
    closeSync(fd);
    return new TrajectoryWriter(openSync(path, 'a'), path);
  }

  write(record: TrajectoryHeader | StepRecord | EndRecord): void {
    if (this.fd === null) throw new Error(`trajectory ${this.path} is closed`);
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
