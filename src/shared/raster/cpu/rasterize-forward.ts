// Compositing stage of the CPU reference rasterizer (docs/DESIGN.md section 3), float64 inside.
// Inputs: Splats and a Camera. Output: RenderOutput (rgb [H, W, 3] over white, alpha [H, W]).
// Invariant: rasterizeForward visits only the pixels inside each Gaussian's box (the one
// compositing walk, composite.ts) and yields bit-for-bit the image of rasterizeForwardDense, the
// literal per-pixel loop over all Gaussians: both composite every pixel over the same
// depth-sorted list with the same float operations.
import type { Floats, Splats } from '../../scene/splats';
import type { Camera, Projection, RasterOptions, RenderOutput } from '../types';
import { ALPHA_MAX, ALPHA_THRESHOLD, T_STOP, cameraMath } from './camera-math';
import { compositeFrontToBack, compositePlanes, type CompositePlanes } from './composite';
import { projectForward, projectGaussian } from './project-forward';
import { viewColors } from './sh';

/** Background colour (white), per channel. */
export const BACKGROUND = 1;

/** Forward result with the float64 image and what the backward pass replays. */
export interface ForwardState {
  width: number;
  height: number;
  projection: Projection;
  order: Int32Array; // [M] indices of non-culled Gaussians sorted by depth, ties by index
  rgb: Float64Array; // [H, W, 3]
  alpha: Float64Array; // [H, W], 1 - T_final
  transmittance: Float64Array; // [H, W], T_final
  lastRank: Int32Array; // [H, W] rank in `order` of the last Gaussian composited, -1 if none
  colors: Floats; // [N, 3] colours composited (SH evaluated from this camera; the stored ones when flat)
  opacities: Floats; // [N] opacities composited (after the antialiasing compensation when on)
  options: RasterOptions;
}

/** Non-culled Gaussian indices sorted by camera depth ascending, ties by index (stable). */
export function depthOrder(depths: ArrayLike<number>, keep: (i: number) => boolean, n: number): Int32Array {
  const idx: number[] = [];
  for (let i = 0; i < n; i++) if (keep(i)) idx.push(i);
  idx.sort((a, b) => depths[a] - depths[b] || a - b);
  return Int32Array.from(idx);
}

/** Alpha of a Gaussian with conic (a, b, c) and opacity o at offset (dx, dy) from its mean, before the clamp. */
export function rawAlpha(o: number, a: number, b: number, c: number, dx: number, dy: number): number {
  return o * Math.exp(-0.5 * (a * dx * dx + 2 * b * dx * dy + c * dy * dy));
}

/**
 * Planes one caller reuses across forward passes of one size (the fit's steps): the walk's planes
 * and the image's. A state built on them is valid until the next pass on the same scratch.
 */
export interface ForwardScratch {
  walk: CompositePlanes;
  rgb: Float64Array; // [H, W, 3]
  alpha: Float64Array; // [H, W]
}

export function forwardScratch(width: number, height: number): ForwardScratch {
  return { walk: compositePlanes(width, height), rgb: new Float64Array(width * height * 3), alpha: new Float64Array(width * height) };
}

export function rasterizeForwardState(splats: Splats, camera: Camera, opts: RasterOptions = {}, scratch?: ForwardScratch): ForwardState {
  const { width, height } = camera;
  const projection = projectForward(splats, camera, opts);
  const { means2d, conics, radii, depths } = projection;
  const order = depthOrder(depths, (i) => radii[i * 2] > 0, splats.count);
  const colors = viewColors(splats, camera, { maxDegree: opts.shDegree });
  const opacities = projection.opacities ?? splats.opacities;
  const { T, lastRank, acc } = compositeFrontToBack({ width, height, order, means2d, conics, radii, opacities, colors }, {}, undefined, scratch?.walk);
  return finish({ width, height, projection, order, lastRank, colors, opacities, options: opts }, acc as Float64Array, T, scratch);
}

export function rasterizeForward(splats: Splats, camera: Camera, opts: RasterOptions = {}): RenderOutput {
  return toOutput(rasterizeForwardState(splats, camera, opts));
}

/**
 * The literal definition: for every pixel, every Gaussian in front of the near plane with a
 * valid 2D covariance, in depth order, with no boxes. Slow; used to prove rasterizeForward exact.
 */
export function rasterizeForwardDense(splats: Splats, camera: Camera, opts: RasterOptions = {}): RenderOutput {
  const { width, height } = camera;
  const cam = cameraMath(camera);
  const n = splats.count;
  const proj = new Array(n).fill(null).map((_, i) => projectGaussian(splats, i, cam, opts.antialiased === true));
  const colors = viewColors(splats, camera, { maxDegree: opts.shDegree });
  const depths = proj.map((p) => (p ? p.tc[2] : 0));
  const order = depthOrder(depths, (i) => proj[i] !== null, n);
  const acc = new Float64Array(width * height * 3);
  const T = new Float64Array(width * height).fill(1);
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const p = py * width + px;
      let t = 1;
      for (let rank = 0; rank < order.length; rank++) {
        const g = order[rank];
        const pg = proj[g];
        if (!pg) continue;
        const [a, b, c] = pg.conic;
        const dx = px + 0.5 - pg.mean2d[0];
        const dy = py + 0.5 - pg.mean2d[1];
        const alpha = Math.min(ALPHA_MAX, rawAlpha(splats.opacities[g] * pg.compensation, a, b, c, dx, dy));
        if (alpha < ALPHA_THRESHOLD) continue;
        const next = t * (1 - alpha);
        if (next <= T_STOP) break;
        const wgt = alpha * t;
        for (let k = 0; k < 3; k++) acc[p * 3 + k] += colors[g * 3 + k] * wgt;
        t = next;
      }
      T[p] = t;
    }
  }
  const base = { width, height, projection: projectForward(splats, camera, opts), order: new Int32Array(0), lastRank: new Int32Array(0) };
  return toOutput(finish({ ...base, colors, opacities: splats.opacities, options: opts }, acc, T));
}

type StateBase = Omit<ForwardState, 'rgb' | 'alpha' | 'transmittance'>;

/** Adds the white background and the coverage to the accumulated colour and transmittance (into `into`'s planes when given). */
export function finish(base: StateBase, acc: Float64Array, T: Float64Array, into?: { rgb: Float64Array; alpha: Float64Array }): ForwardState {
  const { width, height } = base;
  const npix = width * height;
  const rgb = into ? into.rgb : new Float64Array(npix * 3);
  const alpha = into ? into.alpha : new Float64Array(npix);
  for (let p = 0; p < npix; p++) {
    for (let k = 0; k < 3; k++) rgb[p * 3 + k] = acc[p * 3 + k] + T[p] * BACKGROUND;
    alpha[p] = 1 - T[p];
  }
  return { ...base, rgb, alpha, transmittance: T };
}

export function toOutput(s: ForwardState): RenderOutput {
  return { width: s.width, height: s.height, rgb: Float32Array.from(s.rgb), alpha: Float32Array.from(s.alpha) };
}
