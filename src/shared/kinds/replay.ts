// The one replay of a logged episode (docs/DESIGN.md, "Structured steps"): the logged calls run
// again through a fresh pure episode of the task's kind (KindRules), which is deterministic, so the scene, the id counter, both
// budgets and every call's StepInfo come back exactly. Resume, `splatlab replay`, regrading, the
// study replay frames and the results view all iterate this generator.
// Inputs: an Episode built from the task, the log's step records. Output: {record, result} per
// replayed call, in order. Invariant (strict mode): a log that disagrees with its replay (a step
// number out of order, a call after the end, a text, a footer or a scene snapshot that differs) stops the
// replay with ReplayError rather than continuing from a wrong state. Every kind's resume
// (SplatBench's src/main/kinds/splatbench/resume.ts, search's and relation's envs) goes through it.
import type { KindRules } from './kind';
import type { StepResult } from '../env/step';
import { toCompactRecord } from '../scene/records';
import type { StepRecord } from '../env/trajectory-schema';

export class ReplayError extends Error {
  override name = 'ReplayError';
}

export interface ReplayedStep {
  record: StepRecord;
  result: StepResult;
}

export interface ReplayOptions {
  /** Stop after this step number (inclusive). */
  upTo?: number;
  /** Check the log against its replay (resume needs this; a results view can be lenient). */
  strict?: boolean;
  /** How the log is named in errors. */
  source?: string;
}

function lastLine(text: string): string {
  const i = text.lastIndexOf('\n');
  return i >= 0 ? text.slice(i + 1) : text;
}

/**
 * Whether a logged text is the replayed result's: it ends with the result's body and footer. What
 * a kind's live episode puts in front (SplatBench's image text, relation's practice feedback) is
 * the only part not checked; the footer alone is checked by the caller's first test.
 */
export function replaysText(logged: string, result: Pick<StepResult, 'body' | 'footer'>): boolean {
  const tail = result.body ? `${result.body}\n${result.footer}` : result.footer;
  return logged === tail || logged.endsWith(`\n${tail}`);
}

export function* replaySteps(episode: KindRules, steps: readonly StepRecord[], opts: ReplayOptions = {}): Generator<ReplayedStep> {
  const src = opts.source ?? 'the log';
  for (const record of steps) {
    if (record.step === 0) continue;
    if (opts.upTo !== undefined && record.step > opts.upTo) return;
    if (opts.strict && record.step !== episode.stepCount + 1) throw new ReplayError(`cannot resume from ${src}: step ${record.step} follows step ${episode.stepCount}`);
    const result = episode.step({ tool: record.tool, args: record.args });
    if (opts.strict) {
      if (!result.charged) throw new ReplayError(`cannot resume from ${src}: step ${record.step} comes after the end of the episode`);
      if (lastLine(record.text) !== result.footer) throw new ReplayError(`cannot resume from ${src}: step ${record.step} logged '${lastLine(record.text)}' but replays to '${result.footer}'`);
      if (!replaysText(record.text, result)) throw new ReplayError(`cannot resume from ${src}: step ${record.step} (${record.tool}) logged a text its replay does not give`);
      if (record.state && JSON.stringify((episode.records?.() ?? []).map(toCompactRecord)) !== JSON.stringify(record.state)) {
        throw new ReplayError(`cannot resume from ${src}: the scene after step ${record.step} does not replay to its snapshot`);
      }
    }
    yield { record, result };
  }
}

/** Runs a replay to its end and returns every replayed step. */
export function replayAll(episode: KindRules, steps: readonly StepRecord[], opts: ReplayOptions = {}): ReplayedStep[] {
  return [...replaySteps(episode, steps, opts)];
}
