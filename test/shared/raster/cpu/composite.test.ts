// The one compositing walk (src/shared/raster/cpu/composite.ts) and each of its callers against a
// literal per-pixel walk written here (every pixel over the whole depth order, as
// rasterizeForwardDense): the reference forward pass (transmittance, last rank, image), the pixel
// trace, the debugger's maps and overdraw, and the decidability replay (nothing marked when its
// float32 bounds are zero), flat, SH and antialiased.
import { describe, expect, it } from 'vitest';
import { depthOrder, projectForward, rasterizeForwardDense, rasterizeForwardState, tracePixel } from '../../../../src/shared/raster/cpu';
import { ALPHA_MAX, ALPHA_THRESHOLD, T_STOP, pixelRange } from '../../../../src/shared/raster/cpu/camera-math';
import { compositeFrontToBack } from '../../../../src/shared/raster/cpu/composite';
import { undecidablePixels } from '../../../../src/shared/raster/cpu/decidable';
import { viewColors } from '../../../../src/shared/raster/cpu/sh';
import { pixelMaps } from '../../../../src/shared/debug/maps';
import { overdrawMap } from '../../../../src/shared/debug/overdraw';
import { mulberry32 } from '../../../../src/shared/math/random';
import type { Splats } from '../../../../src/shared/scene/splats';
import type { Camera, RasterOptions } from '../../../../src/shared/raster/types';
import { randomCamera, randomSplats, withRandomSh } from './random-scene';

interface PixelWalk {
  list: Array<{ g: number; alpha: number; t: number }>; // composited, front to back
  evaluated: number; // Gaussians whose box holds the pixel, up to and including the stopping one
  stoppedBy: number;
  T: number;
  rgb: [number, number, number];
}

/** The definition, pixel by pixel over the whole depth order (no boxes but for the overdraw count). */
function walkPixel(s: Splats, cam: Camera, opts: RasterOptions, px: number, py: number): PixelWalk {
  const proj = projectForward(s, cam, opts);
  const colors = viewColors(s, cam, { maxDegree: opts.shDegree });
  const o = proj.opacities ?? s.opacities;
  const order = depthOrder(proj.depths, (i) => proj.radii[i * 2] > 0, s.count);
  const out: PixelWalk = { list: [], evaluated: 0, stoppedBy: -1, T: 1, rgb: [0, 0, 0] };
  for (const g of order) {
    const box = pixelRange(proj.means2d[g * 2], proj.means2d[g * 2 + 1], proj.radii[g * 2], proj.radii[g * 2 + 1], cam.width, cam.height);
    if (px >= box.x0 && px <= box.x1 && py >= box.y0 && py <= box.y1) out.evaluated++;
    const dx = px + 0.5 - proj.means2d[g * 2];
    const dy = py + 0.5 - proj.means2d[g * 2 + 1];
    const [a, b, c] = [proj.conics[g * 3], proj.conics[g * 3 + 1], proj.conics[g * 3 + 2]];
    const alpha = Math.min(ALPHA_MAX, o[g] * Math.exp(-0.5 * (a * dx * dx + 2 * b * dx * dy + c * dy * dy)));
    if (alpha < ALPHA_THRESHOLD) continue;
    const next = out.T * (1 - alpha);
    if (next <= T_STOP) {
      out.stoppedBy = g;
      break;
    }
    const wgt = alpha * out.T;
    for (let k = 0; k < 3; k++) out.rgb[k] += colors[g * 3 + k] * wgt;
    out.list.push({ g, alpha, t: out.T });
    out.T = next;
  }
  for (let k = 0; k < 3; k++) out.rgb[k] += out.T;
  return out;
}

const cases: Array<[string, 0 | 3, RasterOptions]> = [
  ['flat', 0, {}],
  ['SH degree 3', 3, {}],
  ['antialiased', 0, { antialiased: true }],
];

describe('compositeFrontToBack and its callers', () => {
  for (const [name, degree, opts] of cases) {
    it(`each caller composites what the per-pixel definition does: ${name}`, () => {
      const rng = mulberry32(90 + degree + (opts.antialiased ? 1 : 0));
      const cam = randomCamera(rng, 18);
      // The flat case is an opaque pile, so pixels reach the 1e-4 stop.
      const flat = randomSplats(rng, 40, cam, name === 'flat' ? { opacityRange: [0.9, 1], scaleRange: [0.2, 0.6] } : { nearFraction: 0.1, opacityRange: [0.3, 1], scaleRange: [0.03, 0.5] });
      const s = degree === 0 ? flat : withRandomSh(rng, flat, degree);
      const state = rasterizeForwardState(s, cam, opts);
      const maps = pixelMaps(state);
      const overdraw = overdrawMap(state).counts;
      const dense = rasterizeForwardDense(s, cam, opts);
      let stops = 0;
      for (let py = 0; py < cam.height; py++) {
        for (let px = 0; px < cam.width; px++) {
          const p = py * cam.width + px;
          const w = walkPixel(s, cam, opts, px, py);
          if (w.stoppedBy >= 0) stops++;
          // The reference forward pass.
          expect(state.transmittance[p]).toBe(w.T);
          expect(state.lastRank[p] >= 0 ? state.order[state.lastRank[p]] : -1).toBe(w.list.length ? w.list[w.list.length - 1].g : -1);
          for (let k = 0; k < 3; k++) expect(state.rgb[p * 3 + k]).toBe(w.rgb[k]);
          expect(Math.fround(w.rgb[0])).toBe(dense.rgb[p * 3]);
          // The pixel trace.
          const trace = tracePixel(s, cam, px, py, opts);
          expect(trace.contributors.map((c) => [c.index, c.alpha, c.T_before])).toEqual(w.list.map((c) => [c.g, c.alpha, c.t]));
          expect(trace.stoppedBy).toBe(w.stoppedBy);
          expect(trace.rgb).toEqual(w.rgb);
          // The debugger's maps (with the composited, compensated opacities) and overdraw.
          expect(maps.count[p]).toBe(w.list.length);
          expect(maps.firstIndex[p]).toBe(w.list.length ? w.list[0].g : -1);
          expect(overdraw[p]).toBe(w.evaluated);
        }
      }
      expect(state.alpha.some((a) => a > 0.5)).toBe(true);
      if (name === 'flat') expect(stops).toBeGreaterThan(0);
    });
  }

  it('walks a window alone, and the decidability replay marks nothing with its float32 bounds at zero', () => {
    const rng = mulberry32(95);
    const cam = randomCamera(rng, 20);
    const s = randomSplats(rng, 50, cam, { opacityRange: [0.3, 1] });
    const state = rasterizeForwardState(s, cam);
    const { means2d, conics, radii } = state.projection;
    const input = { width: 20, height: 20, order: state.order, means2d, conics, radii, opacities: state.opacities, colors: state.colors };
    const whole = compositeFrontToBack(input);
    const part = compositeFrontToBack({ ...input, window: { x0: 4, x1: 9, y0: 7, y1: 8 } });
    for (let p = 0; p < 400; p++) {
      const inside = p % 20 >= 4 && p % 20 <= 9 && Math.floor(p / 20) >= 7 && Math.floor(p / 20) <= 8;
      expect(part.T[p]).toBe(inside ? whole.T[p] : 1);
    }
    expect(undecidablePixels(s, cam, {}, { safety: 0, orderTolerance: Infinity }).count).toBe(0);
  });
});
