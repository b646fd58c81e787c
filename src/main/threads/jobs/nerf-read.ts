// Job 'nerf.read': a NeRF capture's frames decoded and the object placed (src/main/authoring/
// nerf-capture.ts) on a worker thread, so an upload's import never holds the event loop (issue 38
// item 1). Input: the capture folder, its transforms, the photo size. Output: NerfCapture; the
// photos' and masks' buffers are handed over. Invariant: the capture's budget is checked before
// any frame is decoded, here as in-process.
import type { NerfTransforms } from '../../../shared/authoring/import/nerf';
import { readCapture, type NerfCapture } from '../../authoring/nerf-capture';
import type { JobContext } from '../../workers/protocol';

export function nerfReadJob(input: { dir: string; transforms: NerfTransforms; size: number }, ctx: JobContext): NerfCapture {
  const capture = readCapture(input.dir, input.transforms, input.size);
  for (const f of capture.frames) ctx.transfer(f.photo.data.buffer, f.mask.buffer);
  return capture;
}
