// Rasterizer interfaces shared by the CPU reference and the WGSL host code.
// Inputs/outputs: a packed scene (Splats) and an explicit camera in, RGB + coverage out; the
// backward pass maps upstream image gradients to per-Gaussian gradients named v_*.
// Invariant: both implementations take the same arguments and return the same layouts.
import type { Floats, Splats } from '../scene/splats';

/**
 * Explicit pinhole camera, OpenCV axes (+X right, +Y down, +Z forward).
 * `world_to_camera` is a 4x4 matrix in row-major order: x_cam = M * [x_world, 1].
 */
export interface Camera {
  width: number;
  height: number;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  world_to_camera: number[]; // [16] row-major
}

export interface RenderOutput {
  width: number;
  height: number;
  rgb: Float32Array; // [H, W, 3], composited over white
  alpha: Float32Array; // [H, W], coverage = 1 - T_final
}

/** A renderer of one view off the calling thread (the lab's worker pool, a GPU), as the lab hands it to the kinds that render observations. */
export type AsyncViewRenderer = (splats: Splats, camera: Camera) => Promise<RenderOutput> | RenderOutput;

/** Upstream gradients of a scalar loss with respect to the rendered image. */
export interface ImageGrads {
  v_rgb: Floats; // [H, W, 3]
  v_alpha?: Floats; // [H, W], gradient with respect to coverage (silhouette losses)
}

/** Gradients of the loss with respect to every Gaussian parameter. */
export interface SplatGrads {
  v_means: Float64Array; // [N, 3]
  v_scales: Float64Array; // [N, 3]
  v_quats: Float64Array; // [N, 4], with respect to the raw (w, x, y, z) stored values
  v_colors: Float64Array; // [N, 3]
  v_opacities: Float64Array; // [N]
  /** SH bands 1..degree, [N, K, 3] like `sh.rest`; present exactly when the scene has `sh`. */
  v_sh_rest?: Float64Array;
}

/**
 * Rendering options shared by every rasterizer. `antialiased`: mip-splatting's compensation, the
 * opacity is multiplied by sqrt(det(cov2d) / det(cov2d + 0.3 I)) (captures trained with it).
 * `shDegree`: highest SH band evaluated (default all the scene has; 0 = the DC colour only).
 */
export interface RasterOptions {
  antialiased?: boolean;
  shDegree?: number;
}

export type { Splats };

/**
 * Per-Gaussian result of the projection stage (identical layout on CPU and GPU).
 * A culled Gaussian (behind the near plane 0.01, degenerate covariance, or entirely off-screen)
 * has radii 0 and must not contribute to any pixel.
 */
export interface Projection {
  means2d: Floats; // [N, 2] pixel coordinates of the projected mean (not clamped)
  conics: Floats; // [N, 3] inverse 2D covariance (a, b, c) of [[a, b], [b, c]], px^-2, after the 0.3 px^2 dilation
  depths: Floats; // [N] camera-space z
  radii: Int32Array; // [N, 2] half-extent in pixels of the exact alpha >= 1/255 box in x and y; 0 when culled
  /** [N] opacity after the antialiasing compensation; absent when the mode is off (= the stored opacities). */
  opacities?: Floats;
}

/** Progress of a long render: the stage and the fraction of it done (0..1). */
export interface RenderProgress {
  stage: 'upload' | 'project' | 'bin' | 'composite';
  fraction: number;
}

/**
 * Wall-clock milliseconds of each stage of one tile-binned render (gsplat's split: projection
 * with SH, the depth sort, the per-tile binning, the compositing), with the threads the parallel
 * stages ran on and the frame's size in work (visible Gaussians, tile intersections).
 */
export interface StageTimings {
  project: number;
  sort: number;
  bin: number;
  composite: number;
  threads: number;
  visible: number;
  intersections: number;
}

/** Options of a long render that can be followed and stopped. */
export interface RenderControl {
  signal?: AbortSignal;
  onProgress?: (p: RenderProgress) => void;
  /** Called once a render finished, with its per-stage times (the tile rasterizers). */
  onTimings?: (t: StageTimings) => void;
}
