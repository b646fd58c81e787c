// Per-pixel trace for the rasterizer debugger: which Gaussians make up one pixel, in order.
// Inputs: Splats, a Camera and a pixel (px, py) in integer pixel coordinates.
// Output: the composited Gaussians front to back with their alpha and transmittance.
// Invariant: replays exactly the forward pass, so sum(contribution) + T_final * white equals the
// rendered pixel of rasterizeForward (in float64).
import type { Splats } from '../../scene/splats';
import type { Camera, RasterOptions } from '../types';
import { ALPHA_MAX, ALPHA_THRESHOLD, T_STOP } from './camera-math';
import { projectForward } from './project-forward';
import { depthOrder, rawAlpha } from './rasterize-forward';
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
  const rgb: [number, number, number] = [0, 0, 0];
  let t = 1;
  let stoppedBy = -1;
  for (const g of order) {
    const dx = px + 0.5 - means2d[g * 2];
    const dy = py + 0.5 - means2d[g * 2 + 1];
    const alpha = Math.min(ALPHA_MAX, rawAlpha(opacities[g], conics[g * 3], conics[g * 3 + 1], conics[g * 3 + 2], dx, dy));
    if (alpha < ALPHA_THRESHOLD) continue;
    const next = t * (1 - alpha);
    if (next <= T_STOP) {
      stoppedBy = g;
      break;
    }
    const w = alpha * t;
    const contribution: [number, number, number] = [colors[g * 3] * w, colors[g * 3 + 1] * w, colors[g * 3 + 2] * w];
    for (let k = 0; k < 3; k++) rgb[k] += contribution[k];
    contributors.push({ index: g, depth: depths[g], alpha, T_before: t, T_after: next, contribution });
    t = next;
  }
  for (let k = 0; k < 3; k++) rgb[k] += t;
  return { contributors, stoppedBy, T_final: t, rgb };
}

/** The ordered list of Gaussians composited at pixel (px, py). */
export function traceContributors(splats: Splats, camera: Camera, px: number, py: number, opts: RasterOptions = {}): Contributor[] {
  return tracePixel(splats, camera, px, py, opts).contributors;
}
