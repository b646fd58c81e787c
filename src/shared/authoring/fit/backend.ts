// The rasterizer a fit runs on, abstracted as forward + backward, and its CPU implementation
// (the float64 reference of src/shared/raster/cpu). Inputs: a packed scene and a camera; then
// upstream image gradients for that same render. Outputs: the render (rgb over white, coverage)
// and per-Gaussian gradients. Invariant: backward() always refers to the most recent forward();
// an implementation is deterministic for identical inputs unless its `deterministic` says not.
import type { Floats, Splats } from '../../scene/splats';
import type { Camera, ImageGrads, SplatGrads } from '../../raster/types';
import { rasterizeBackward, rasterizeForwardState, type ForwardState } from '../../raster/cpu';
import { forwardScratch, type ForwardScratch } from '../../raster/cpu/rasterize-forward';
import { backwardScratch, type BackwardScratch } from '../../raster/cpu/rasterize-backward';

export interface FitRender {
  width: number;
  height: number;
  rgb: Floats; // [H, W, 3] over white
  alpha: Floats; // [H, W] coverage = 1 - T_final
}

export interface FitBackend {
  readonly name: string;
  /** True when identical inputs always give bit-identical outputs. */
  readonly deterministic: boolean;
  forward(splats: Splats, camera: Camera): Promise<FitRender>;
  /** Gradients of the loss for the scene and camera of the last forward(). */
  backward(grads: ImageGrads): Promise<SplatGrads>;
  dispose?(): void;
}

/** CPU reference backend: exact float64 forward and backward. */
export function cpuFitBackend(): FitBackend {
  let last: { splats: Splats; camera: Camera; state: ForwardState } | null = null;
  let planes: { key: string; forward: ForwardScratch; backward: BackwardScratch } | null = null;
  return {
    name: 'cpu',
    deterministic: true,
    async forward(splats, camera) {
      const key = `${camera.width}x${camera.height}`;
      if (planes?.key !== key) planes = { key, forward: forwardScratch(camera.width, camera.height), backward: backwardScratch(camera.width, camera.height) };
      const state = rasterizeForwardState(splats, camera, {}, planes.forward);
      last = { splats, camera, state };
      return { width: state.width, height: state.height, rgb: state.rgb, alpha: state.alpha };
    },
    async backward(grads) {
      if (!last) throw new Error('cpu fit backend: backward() before forward()');
      return rasterizeBackward(last.splats, last.camera, grads, last.state, undefined, planes?.backward);
    },
  };
}
