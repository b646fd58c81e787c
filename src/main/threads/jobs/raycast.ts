// Job 'author.raycast': the exact CPU ray cast of an authored object from some cameras (author
// previews and photo sheets), on a worker thread. Input: the object, cameras, ray-cast options.
// Output: RaycastOutput per camera, in camera order; the images' buffers are handed over.
import type { ProceduralObject } from '../../../shared/authoring/primitives';
import { raycastObject, type RaycastOptions, type RaycastOutput } from '../../../shared/authoring/raycast';
import type { Camera } from '../../../shared/raster/types';
import type { JobContext } from '../../workers/protocol';

export function raycastJob(input: { obj: ProceduralObject; cameras: Camera[]; opts: RaycastOptions }, ctx: JobContext): RaycastOutput[] {
  return input.cameras.map((camera, i) => {
    const out = raycastObject(input.obj, camera, input.opts);
    ctx.transfer(out.rgb.data.buffer, out.mask.buffer);
    ctx.progress(i + 1, input.cameras.length);
    return out;
  });
}
