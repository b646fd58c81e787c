// Job 'image.png': any image's PNG (the Author view's previews and photo sheets) encoded on a
// worker thread (issue 29 item 1). SplatBench's sheets and images are its own jobs
// (src/main/kinds/splatbench/image-jobs.ts, in the kinds' job table src/main/kinds/jobs.ts).
// Input: an RGB image. Output: the PNG bytes, transferred.
import type { RgbImage } from '../../../shared/image/image';
import { encodePng } from '../../io/png';
import type { JobContext } from '../../workers/protocol';

export function pngJob(input: { image: RgbImage }, ctx: JobContext): Uint8Array {
  const png = encodePng(input.image);
  ctx.transfer(png.buffer);
  return png;
}
