// Job 'author.scramble': the Author view's scramble of a finished fit (k-means or the author's
// groups, then the tinted and the scrambled scene drawn at 160 px and PNG-encoded) on a worker
// thread (issue 38 item 1), with the same function as on the main thread
// (src/main/authoring/session/scramble-view.ts drawnScramble). Input: the fit's Gaussians, k,
// seed, labels. Output: the ScrambleResult (data URLs).
import type { ScrambleResult } from '../../../shared/api/author';
import { drawnScramble, type ScrambleInput } from '../../authoring/session/scramble-view';

export function scrambleJob(input: ScrambleInput): ScrambleResult {
  return drawnScramble(input);
}
