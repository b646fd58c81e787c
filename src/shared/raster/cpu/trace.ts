// Per-pixel trace for the rasterizer debugger: which Gaussians make up one pixel, in order.
// Inputs: Splats, a Camera and a pixel (px, py) in integer pixel coordinates.
// Output: the composited Gaussians front to back with their alpha and transmittance.
// Invariant: the forward pass's own compositing walk (composite.ts) on one pixel, so
// sum(contribution) + T_final * white equals the rendered pixel of rasterizeForward (in float64).
import type { Splats } from '../../scene/splats';
import type { Camera, RasterOptions } from '../types';
import { compositeFrontToBack } from './composite';
import { projectForward } from './project-forward';
import { depthOrder } from './rasterize-forward';
import { viewColors } from './sh';

export interface Contributor {
  index: number; // Gaussian index in the Splats
  depth: number; // camera-space z
  alpha: number; // after the 0.99 clamp
  T_before: number; // transmittance in front of this Gaussian
  T_after: number; // T_before * (1 - alpha)
  contribution: [number, number, number]; // colour * alpha * T_before
}

export interface PixelTrace {
  contributors: Contributor[];
  /** Index of the Gaussian that would have brought T to 1e-4 or below (not composited), or -1. */
  stoppedBy: number;
  T_final: number;
  rgb: [number, number, number];
}

/** Full trace of pixel (px, py): contributors, the stopping Gaussian and the final colour. */
export function tracePixel(splats: Splats, camera: Camera, px: number, py: number, opts: RasterOptions = {}): PixelTrace {
  const proj = projectForward(splats, camera, opts);
  const colors = viewColors(splats, camera, { maxDegree: opts.shDegree });
  const opacities = proj.opacities ?? splats.opacities;
  const { means2d, conics, radii, depths } = proj;
  const order = depthOrder(depths, (i) => radii[i * 2] > 0, splats.count);
  const contributors: Contributor[] = [];
  let stoppedBy = -1;
  // The one compositing walk on this pixel alone (a Gaussian whose box misses it has alpha < 1/255 there).
  const { T, acc } = compositeFrontToBack(
    { width: camera.width, height: camera.height, order, means2d, conics, radii, opacities, colors, window: { x0: px, x1: px, y0: py, y1: py } },
    {
      composite: (_p, rank, alpha, t) => {
        const g = order[rank];
        const w = alpha * t;
        contributors.push({ index: g, depth: depths[g], alpha, T_before: t, T_after: t * (1 - alpha), contribution: [colors[g * 3] * w, colors[g * 3 + 1] * w, colors[g * 3 + 2] * w] });
      },
      stop: (_p, rank) => {
        stoppedBy = order[rank];
      },
    },
  );
  const p = py * camera.width + px;
  const t = T[p];
  const sum = acc as Float64Array;
  const rgb: [number, number, number] = [sum[p * 3] + t, sum[p * 3 + 1] + t, sum[p * 3 + 2] + t];
  return { contributors, stoppedBy, T_final: t, rgb };
}

/** The ordered list of Gaussians composited at pixel (px, py). */
export function traceContributors(splats: Splats, camera: Camera, px: number, py: number, opts: RasterOptions = {}): Contributor[] {
  return tracePixel(splats, camera, px, py, opts).contributors;
}
