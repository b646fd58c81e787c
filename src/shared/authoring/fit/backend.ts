// The rasterizer a fit runs on, abstracted as forward + backward, and its CPU implementation
// (the float64 reference of src/shared/raster/cpu). Inputs: a packed scene and a camera; then
// upstream image gradients for that same render. Outputs: the render (rgb over white, coverage)
// and per-Gaussian gradients. Invariant: backward() always refers to the most recent forward();
// an implementation is deterministic for identical inputs unless its `deterministic` says not.
import type { Floats, Splats } from '../../scene/splats';
import type { Camera, ImageGrads, SplatGrads } from '../../raster/types';
import type { RgbImage } from '../../image/image';
import type { LossParts } from './loss';
import { rasterizeBackward, rasterizeForwardState, type ForwardState } from '../../raster/cpu';
import { forwardScratch, type ForwardScratch } from '../../raster/cpu/rasterize-forward';
import { backwardScratch, type BackwardScratch } from '../../raster/cpu/rasterize-backward';

export interface FitRender {
  width: number;
  height: number;
  rgb: Floats; // [H, W, 3] over white
  alpha: Floats; // [H, W] coverage = 1 - T_final
}

/**
 * A backend's own step: a view's loss and its gradients in one call (the banded CPU backend,
 * backend-bands.ts, which splits it over threads). fitGaussians uses it instead of forward, the
 * loss and backward when present.
 */
export interface FitStepper {
  /** Called once per fit, before its first step, with its views and Gaussian count. */
  prepare(views: readonly { photo: RgbImage; mask: ArrayLike<number> }[], count: number): void;
  /** Loss of view `view` (an index into prepare's views) for this scene, and its gradients when asked. */
  evaluate(splats: Splats, camera: Camera, view: number, withGrad: boolean): Promise<{ parts: LossParts; grads: SplatGrads | null }>;
  /** Called once when the fit ends (done, failed or aborted): helper threads may go. */
  end(): void;
}

export interface FitBackend {
  readonly name: string;
  /** True when identical inputs always give bit-identical outputs. */
  readonly deterministic: boolean;
  forward(splats: Splats, camera: Camera): Promise<FitRender>;
  /** Gradients of the loss for the scene and camera of the last forward(). */
  backward(grads: ImageGrads): Promise<SplatGrads>;
  /** The backend's own step (see FitStepper). */
  readonly stepper?: FitStepper;
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
