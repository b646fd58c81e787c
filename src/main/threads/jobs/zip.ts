// Job 'archive.zip': an archive's members deflated and zipped (fflate's zipSync) on a worker
// thread, so a study export never holds the event loop while it compresses (issue 38 item 1).
// Input: fflate's Zippable (member path -> [bytes, options]). Output: the zip's bytes, handed over.
// Invariant: the same bytes as zipSync on the main thread for the same input.
import { zipSync, type Zippable } from 'fflate';
import type { JobContext } from '../../workers/protocol';

export function zipJob(input: Zippable, ctx: JobContext): Uint8Array {
  const zip = zipSync(input);
  ctx.transfer(zip.buffer);
  return zip;
}
