// GPU fit backend: forward and backward on the grader's WGSL rasterizer (GpuRasterizer), so the
// fit optimises exactly the image the grader renders. Inputs/outputs as FitBackend.
// Invariant: backward() re-renders the scene and camera of the last forward() inside the same
// submission (GpuRasterizer.backward replays the forward), so the pair stays consistent.
// The WGSL sums gradients in fixed trees, but float32 results still depend on the device and
// driver, so this backend does not promise bit-identical fits across machines (`deterministic`
// is false; the CPU backend promises them everywhere).
import type { Splats } from '../../scene/splats';
import type { Camera } from '../../raster/types';
import type { GpuRasterizer } from '../../raster/gpu';
import type { FitBackend } from './backend';

export function gpuFitBackend(rasterizer: GpuRasterizer): FitBackend {
  let last: { splats: Splats; camera: Camera } | null = null;
  return {
    name: 'gpu',
    deterministic: false,
    async forward(splats, camera) {
      last = { splats, camera };
      return rasterizer.forward(splats, camera);
    },
    async backward(grads) {
      if (!last) throw new Error('gpu fit backend: backward() before forward()');
      return rasterizer.backward(last.splats, last.camera, grads);
    },
  };
}
