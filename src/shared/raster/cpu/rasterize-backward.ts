// Backward of the compositing stage: image gradients -> per-Gaussian 2D gradients, float64;
// rasterizeBackward chains it with project_backward into the full SplatGrads.
// Inputs: Splats, Camera (or the ForwardState of the same scene and camera), upstream ImageGrads
// (v_rgb [H, W, 3], optional v_alpha [H, W] on coverage). Output: ProjectionGrads / SplatGrads.
// rasterizeBackwardPixels also walks one band of rows, continuing the sums of the band above
// (BandChain: the fit's banded step, src/shared/authoring/fit/bands.ts).
// Invariant: each pixel replays exactly the Gaussians the forward pass composited (ranks up to
// lastRank with alpha >= 1/255), back to front; a Gaussian whose alpha hit the 0.99 clamp passes
// no gradient to its opacity, conic or mean at that pixel (the clamp is flat there).
import type { Splats } from '../../scene/splats';
import type { Camera, ImageGrads, RasterOptions, SplatGrads } from '../types';
import { ALPHA_MAX, ALPHA_THRESHOLD, pixelRange, rowSpan } from './camera-math';
import { BACKGROUND, rasterizeForwardState, type ForwardState } from './rasterize-forward';
import { projectBackward } from './project-backward';
import { viewColorsBackward } from './sh';

/** Gradients with respect to the projection stage's outputs and the per-Gaussian appearance. */
export interface ProjectionGrads {
  v_means2d: Float64Array; // [N, 2] pixel coordinates
  v_conics: Float64Array; // [N, 3] (a, b, c) of [[a, b], [b, c]], b counted once
  v_colors: Float64Array; // [N, 3]
  v_opacities: Float64Array; // [N] on the composited (compensated, when antialiased) opacity
}

/** Per-pixel planes of the backward walk, kept by a caller across passes of one size. */
export interface BackwardScratch {
  T: Float64Array; // [H, W]
  S: Float64Array; // [H, W, 3]
}

export function backwardScratch(width: number, height: number): BackwardScratch {
  return { T: new Float64Array(width * height), S: new Float64Array(width * height * 3) };
}

/** The forward pass's records rasterizeBackwardPixels replays (a ForwardState has them all). */
export type BackwardInput = Pick<ForwardState, 'width' | 'height' | 'order' | 'lastRank' | 'transmittance' | 'colors' | 'opacities'> & {
  projection: Pick<ForwardState['projection'], 'means2d' | 'conics' | 'radii'>;
};

/**
 * How a band's backward continues the sums of the Gaussians begun in the band above (bands.ts):
 * a float sum is exact only continued in order, so a Gaussian whose box starts above `fromRow`
 * and reaches it starts from the band above's sums (`carry`, which waits for that band to be done
 * with it) instead of 0. `finished` is told each rank once its sums are written (for the band below).
 */
export interface BandChain {
  fromRow: number;
  carry(g: number, rank: number, sums: Float64Array): void;
  finished(rank: number): void;
}

/** The order of a Gaussian's sums in BandChain.carry: colour (3), opacity, conic (3), mean (2). */
export const CHAIN_SUMS = 9;

/**
 * The compositing backward. `rows` [y0, y1] (inclusive) restricts it to those rows (a band of
 * the fit's step: each Gaussian's sums then run over the band's pixels only, in the same order);
 * `into` receives the sums (zeroed here) instead of new arrays; `chain` continues the sums of
 * the Gaussians begun above the band (BandChain).
 */
export function rasterizeBackwardPixels(
  splats: Pick<Splats, 'count'>,
  state: BackwardInput,
  grads: ImageGrads,
  scratch?: BackwardScratch,
  rows?: { y0: number; y1: number },
  into?: ProjectionGrads,
  chain?: BandChain,
): ProjectionGrads {
  const n = splats.count;
  const { width, height, order, lastRank, transmittance } = state;
  const { means2d, conics, radii } = state.projection;
  const { colors, opacities } = state;
  const { v_rgb, v_alpha } = grads;
  const out: ProjectionGrads = into ?? {
    v_means2d: new Float64Array(n * 2),
    v_conics: new Float64Array(n * 3),
    v_colors: new Float64Array(n * 3),
    v_opacities: new Float64Array(n),
  };
  if (into) for (const a of [into.v_means2d, into.v_conics, into.v_colors, into.v_opacities]) a.fill(0);
  const npix = width * height;
  const ry0 = rows ? Math.max(0, rows.y0) : 0;
  const ry1 = rows ? Math.min(height - 1, rows.y1) : height - 1;
  // Per pixel while walking back to front: T = transmittance in front of the current Gaussian
  // (starts at T_final), S = colour accumulated behind it including the background.
  if (scratch && scratch.T.length !== npix) throw new Error('rasterizeBackwardPixels: scratch of another size');
  const T = scratch ? scratch.T : new Float64Array(npix);
  const S = scratch ? scratch.S : new Float64Array(npix * 3);
  for (let p = ry0 * width; p < (ry1 + 1) * width; p++) {
    T[p] = transmittance[p];
    for (let k = 0; k < 3; k++) S[p * 3 + k] = transmittance[p] * BACKGROUND;
  }

  const span = new Int32Array(2);
  const vColors = out.v_colors;
  const carried = new Float64Array(CHAIN_SUMS);
  for (let rank = order.length - 1; rank >= 0; rank--) {
    const g = order[rank];
    const mx = means2d[g * 2];
    const my = means2d[g * 2 + 1];
    const a = conics[g * 3];
    const b = conics[g * 3 + 1];
    const c = conics[g * 3 + 2];
    const o = opacities[g];
    const c0 = colors[g * 3];
    const c1 = colors[g * 3 + 1];
    const c2 = colors[g * 3 + 2];
    const box = pixelRange(mx, my, radii[g * 2], radii[g * 2 + 1], width, height);
    let vmx = 0;
    let vmy = 0;
    let va = 0;
    let vb = 0;
    let vc = 0;
    let vo = 0;
    // Each Gaussian is visited once, so its colour gradient sums from 0 in locals (the same floats).
    let vc0 = 0;
    let vc1 = 0;
    let vc2 = 0;
    if (chain && box.y0 < chain.fromRow && box.y1 >= chain.fromRow) {
      chain.carry(g, rank, carried);
      vc0 = carried[0];
      vc1 = carried[1];
      vc2 = carried[2];
      vo = carried[3];
      va = carried[4];
      vb = carried[5];
      vc = carried[6];
      vmx = carried[7];
      vmy = carried[8];
    }
    const y1 = Math.min(box.y1, ry1);
    for (let py = Math.max(box.y0, ry0); py <= y1; py++) {
      const dy = py + 0.5 - my;
      // Only the span where alpha can reach 1/255: outside it every pixel is skipped below anyway.
      rowSpan(a, b, c, o, mx, dy, box.x0, box.x1, span);
      for (let px = span[0]; px <= span[1]; px++) {
        const p = py * width + px;
        if (rank > lastRank[p]) continue;
        const dx = px + 0.5 - mx;
        const vis = Math.exp(-0.5 * (a * dx * dx + 2 * b * dx * dy + c * dy * dy));
        const raw = o * vis;
        const alpha = Math.min(ALPHA_MAX, raw);
        if (alpha < ALPHA_THRESHOLD) continue;
        const ra = 1 / (1 - alpha);
        const t = T[p] * ra; // transmittance in front of g
        T[p] = t;
        const p3 = p * 3;
        const up0 = v_rgb[p3];
        const up1 = v_rgb[p3 + 1];
        const up2 = v_rgb[p3 + 2];
        let gAlpha = 0;
        gAlpha += up0 * (c0 * t - S[p3] * ra);
        vc0 += alpha * t * up0;
        S[p3] += c0 * alpha * t;
        gAlpha += up1 * (c1 * t - S[p3 + 1] * ra);
        vc1 += alpha * t * up1;
        S[p3 + 1] += c1 * alpha * t;
        gAlpha += up2 * (c2 * t - S[p3 + 2] * ra);
        vc2 += alpha * t * up2;
        S[p3 + 2] += c2 * alpha * t;
        if (v_alpha) gAlpha += v_alpha[p] * transmittance[p] * ra;
        if (raw > ALPHA_MAX) continue;
        vo += vis * gAlpha;
        const gq = -0.5 * alpha * gAlpha; // dL/dq with q = d^T conic d
        va += gq * dx * dx;
        vb += gq * 2 * dx * dy;
        vc += gq * dy * dy;
        // d = pixel - mean, so dq/dmean = -2 conic d.
        vmx -= gq * 2 * (a * dx + b * dy);
        vmy -= gq * 2 * (b * dx + c * dy);
      }
    }
    out.v_means2d[g * 2] += vmx;
    out.v_means2d[g * 2 + 1] += vmy;
    out.v_conics[g * 3] += va;
    out.v_conics[g * 3 + 1] += vb;
    out.v_conics[g * 3 + 2] += vc;
    out.v_opacities[g] += vo;
    vColors[g * 3] += vc0;
    vColors[g * 3 + 1] += vc1;
    vColors[g * 3 + 2] += vc2;
    chain?.finished(rank);
  }
  return out;
}

/**
 * Gradients of a loss with respect to every Gaussian parameter (the exact derivative of
 * rasterizeForward away from its discontinuities: the 1/255 threshold and the 1e-4 stop).
 * Pass the ForwardState of the same scene and camera to skip recomputing it.
 */
export function rasterizeBackward(
  splats: Splats,
  camera: Camera,
  grads: ImageGrads,
  state?: ForwardState,
  opts: RasterOptions = state?.options ?? {},
  scratch?: BackwardScratch,
): SplatGrads {
  const forward = state ?? rasterizeForwardState(splats, camera, opts);
  return splatGradsFromPixels(splats, camera, forward, rasterizeBackwardPixels(splats, forward, grads, scratch), opts);
}

/**
 * The rest of the chain after the compositing backward: the antialiasing compensation, the
 * projection's backward and the colours' (SH) backward, into every Gaussian parameter.
 */
export function splatGradsFromPixels(
  splats: Splats,
  camera: Camera,
  forward: Pick<ForwardState, 'projection' | 'opacities'>,
  g2d: ProjectionGrads,
  opts: RasterOptions = {},
): SplatGrads {
  // Antialiased: composited opacity = o * compensation(cov2d).
  let v_opacities = g2d.v_opacities;
  let v_comp: Float64Array | undefined;
  if (opts.antialiased) {
    const eff = forward.opacities;
    v_comp = new Float64Array(splats.count);
    v_opacities = new Float64Array(splats.count);
    for (let i = 0; i < splats.count; i++) {
      const o = splats.opacities[i];
      if (o === 0) continue;
      const comp = eff[i] / o;
      v_opacities[i] = g2d.v_opacities[i] * comp;
      v_comp[i] = g2d.v_opacities[i] * o;
    }
  }
  const g3d = projectBackward(splats, camera, forward.projection, g2d.v_means2d, g2d.v_conics, v_comp);
  const sh = viewColorsBackward(splats, camera, g2d.v_colors, { maxDegree: opts.shDegree });
  for (let i = 0; i < g3d.v_means.length; i++) g3d.v_means[i] += sh.v_means[i];
  const out: SplatGrads = {
    v_means: g3d.v_means,
    v_scales: g3d.v_scales,
    v_quats: g3d.v_quats,
    v_colors: sh.v_colors,
    v_opacities,
  };
  if (splats.sh) out.v_sh_rest = sh.v_rest;
  return out;
}
