// Job 'author.fit.bands': a helper thread of one fit's banded steps (issue 40 item 1). It claims
// row bands of each step the fit's thread posts into the shared frame (serveBands,
// src/shared/authoring/fit/bands.ts) until that frame's quit flag is set, then returns. Started by
// poolBandHelpers (src/main/authoring/fit/bands.ts) on a pool of the fit's own.
// Input: the fit's views (photo, mask) and the BandFrame (SharedArrayBuffers). Output: null.
// Invariant: it blocks its thread (Atomics.wait) for the whole fit, so it never shares a thread
// with other jobs; the fit's results do not depend on whether it ran.
import { serveBands, type BandFrame, type BandView } from '../../../shared/authoring/fit/bands';

export interface FitBandsInput {
  views: BandView[];
  frame: BandFrame;
}

export function fitBandsJob(input: FitBandsInput): null {
  serveBands(input.views, input.frame);
  return null;
}
