// Damaged trajectory logs (#11 item 4): a log written by an older version with two writers (a
// repeated step), or with a call charged but never logged (a gap), can no longer be resumed.
// diagnoseLog finds the first record the one replay disagrees with; repairLog keeps the log's
// valid prefix (every line before that record) so the episode resumes from there, after copying
// the whole original beside it. Input: a log path and its loaded task. Output: a diagnosis or a
// repair report. Invariant: the original bytes are kept (`<log>.damaged-<time>`) before the log
// is rewritten; a log that replays cleanly is never touched.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { ReplayError, replaySteps } from '../../shared/kinds/replay';
import { StepRecordSchema } from '../../shared/env/trajectory-schema';
import type { KindTask } from '../kinds/kind';
import { rulesFor } from '../kinds/registry';

export interface LogDiagnosis {
  /** null when the whole log replays; else why it stops (the replay's own words). */
  damage: string | null;
  /** 1-based line of the first record that does not replay (null when none). */
  line: number | null;
  /** Calls of the valid prefix. */
  validSteps: number;
  /** Lines after the valid prefix (dropped by a repair). */
  droppedLines: number;
}

export interface RepairReport extends LogDiagnosis {
  backup: string | null;
}

const isStepLine = (value: unknown): boolean => StepRecordSchema.safeParse(value).success && (value as { type?: unknown }).type === undefined;

export function diagnoseLog(path: string, task: KindTask): LogDiagnosis {
  const lines = readFileSync(path, 'utf8').split('\n');
  const complete = lines.at(-1) === '' ? lines.slice(0, -1) : lines;
  const rules = rulesFor(task);
  let validSteps = 0;
  for (let i = 0; i < complete.length; i++) {
    let value: unknown;
    try {
      value = JSON.parse(complete[i]);
    } catch {
      continue;
    }
    if (!isStepLine(value)) continue;
    const record = StepRecordSchema.parse(value);
    if (record.step === 0) continue;
    try {
      for (const _ of replaySteps(rules, [record], { strict: true, source: path })) validSteps = record.step;
    } catch (error) {
      if (!(error instanceof ReplayError)) throw error;
      return { damage: error.message, line: i + 1, validSteps, droppedLines: complete.length - i };
    }
  }
  return { damage: null, line: null, validSteps, droppedLines: 0 };
}

/** Keeps the valid prefix of a damaged log (the original is copied beside it first). */
export function repairLog(path: string, task: KindTask, now = new Date()): RepairReport {
  const d = diagnoseLog(path, task);
  if (d.damage === null || d.line === null) return { ...d, backup: null };
  const backup = `${path}.damaged-${now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`;
  copyFileSync(path, backup);
  const lines = readFileSync(path, 'utf8').split('\n');
  writeFileSync(path, `${lines.slice(0, d.line - 1).join('\n')}\n`);
  return { ...d, backup };
}
