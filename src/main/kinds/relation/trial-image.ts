// A relation trial's stimulus rendered from its hidden parameters and PNG-encoded (docs/RELATION.md;
// issue 38 item 1: the event loop only dispatches). One function for both places it runs: the
// lab's worker pool (job 'relation.trialImage', in the kinds' job table src/main/kinds/jobs.ts)
// and, where no pool exists (the CLI, tests), the calling thread; so the same bytes either way.
// Input: a trial's parameters and the task's samples per pixel. Output: the PNG bytes.
import type { RelationParams } from '../../../shared/kinds/relation/params';
import { renderParams } from '../../../shared/kinds/relation/sample';
import { encodePng } from '../../io/png';
import type { JobContext } from '../../workers/protocol';
import type { WorkerPool } from '../../workers/pool';

export interface TrialImageInput {
  params: RelationParams;
  samples: number;
}

/** Renders and encodes a trial's stimulus on this thread. */
export function renderTrialPng(input: TrialImageInput): Uint8Array {
  return encodePng(renderParams(input.params, { samples: input.samples }).rgb);
}

/** The pool job: the same PNG, its buffer transferred back. */
export function trialImageJob(input: TrialImageInput, ctx: JobContext): Uint8Array {
  const png = renderTrialPng(input);
  ctx.transfer(png.buffer);
  return png;
}

/** Where a trial's stimulus is drawn. */
export type TrialRenderer = (input: TrialImageInput) => Promise<Uint8Array>;

/** The calling thread (the CLI and tests: no pool). */
export const localTrialRenderer: TrialRenderer = (input) => Promise.resolve(renderTrialPng(input));

/** The pool's queue the stimuli wait in (served beside every other client of the lab's pool). */
export const TRIAL_IMAGES_CLIENT = 'relation-trial-images';

/** The lab's worker pool. */
export function poolTrialRenderer(pool: WorkerPool): TrialRenderer {
  return (input) => pool.run('relation.trialImage', input, { client: TRIAL_IMAGES_CLIENT });
}
