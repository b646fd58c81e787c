// The wasm compositing kernel (src/shared/raster/cpu/composite-kernel.ts, run by composite-wasm.ts)
// against its reference compositeTileRange (tiles.ts) on seeded random frames: flat and SH 3,
// antialiased, opaque piles that reach the 1e-4 stop, Gaussians at the near plane, float32 input
// on a non-square image, frames projected in several ranges (rows with gaps, TileFrame.runs).
// Tolerance 1e-6: the kernel's exp is within 2 ulp of Math.exp (checked below), which moves a
// pixel's float64 sums by about 1e-15 relative, far below a float32 ulp (6e-8 at 1); 1e-6 leaves
// room for a pixel whose 1/255 or 1e-4 test the last bits could flip, and fails any wrong tap,
// constant or operation. The kernel must also run here (Node has WebAssembly): a null compositor
// would test nothing.
import { describe, expect, it } from 'vitest';
import { instantiateWasmSync } from '../../../../src/shared/wasm/runtime';
import { emitCompositeModule, expK } from '../../../../src/shared/raster/cpu/composite-kernel';
import { prepareComposite } from '../../../../src/shared/raster/cpu/composite-wasm';
import { allocTileFrame, binTiles, compositeTileRange, packTileCamera, projectTileRange, tileInput } from '../../../../src/shared/raster/cpu/tiles';
import { mulberry32 } from '../../../../src/shared/math/random';
import type { RasterOptions } from '../../../../src/shared/raster/types';
import type { Camera } from '../../../../src/shared/raster/types';
import type { Splats } from '../../../../src/shared/scene/splats';
import { randomCamera, randomSplats, withRandomSh } from './random-scene';

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

/** |a - b| in units of b's last place. */
function ulps(a: number, b: number): number {
  return a === b ? 0 : Math.abs(a - b) / (Math.abs(b) * 2 ** -52);
}

describe('the compositing kernel', () => {
  it("has an exp equal to expK bit for bit and within 2 ulp of Math.exp", () => {
    const exp = instantiateWasmSync(emitCompositeModule(1)).exp as (x: number) => number;
    const rng = mulberry32(40);
    const xs = [0, -0, 1, -1, -708, -707.9, 709.78, 709.7, 1e-300, -1e-300, 0.34657359027997264, -0.34657359027997264];
    for (let i = 0; i < 50000; i++) xs.push(rng.uniform(-750, 720), rng.uniform(-30, 5), rng.uniform(-1e-3, 1e-3));
    let worst = 0;
    for (const x of xs) {
      expect(Object.is(exp(x), expK(x))).toBe(true);
      if (Math.exp(x) > 1e-300) worst = Math.max(worst, ulps(exp(x), Math.exp(x)));
    }
    expect(worst).toBeLessThanOrEqual(2);
    expect(exp(-800)).toBe(0);
    expect(exp(710)).toBe(Infinity);
    expect(exp(-Infinity)).toBe(0);
    expect(Number.isNaN(exp(NaN))).toBe(true);
  });

  const cases: Array<[string, number, number, 0 | 3, RasterOptions, (rng: ReturnType<typeof mulberry32>, cam: Camera) => Splats]> = [
    ['flat, near plane', 300, 70, 0, {}, (rng, cam) => randomSplats(rng, 300, cam, { nearFraction: 0.1, scaleRange: [0.02, 0.5] })],
    ['SH 3, antialiased', 400, 61, 3, { antialiased: true }, (rng, cam) => randomSplats(rng, 400, cam, { scaleRange: [0.02, 0.3] })],
    ['opaque piles (the 1e-4 stop)', 250, 48, 3, {}, (rng, cam) => randomSplats(rng, 250, cam, { opacityRange: [0.9, 1], scaleRange: [0.2, 0.6] })],
    ['float32, small and many', 1500, 53, 3, {}, (rng, cam) => randomSplats(rng, 1500, cam, { precision: 'f32', scaleRange: [0.01, 0.08] })],
  ];
  for (const [name, n, size, degree, opts, make] of cases) {
    it(`composites as compositeTileRange does, to 1e-6: ${name}, ${n} Gaussians, ${size}px`, () => {
      const rng = mulberry32(n + size);
      const base = randomCamera(rng, size);
      const cam = { ...base, width: size + 11, cx: base.cx + 5.5 };
      const flat = make(rng, cam);
      const s = degree === 0 ? flat : withRandomSh(rng, flat, degree, 0.5);
      const input = tileInput(s, opts);
      const f = allocTileFrame(input, cam.width, cam.height);
      // Three projected ranges: rows with gaps between them, as the pool's chunks leave them.
      const packed = packTileCamera(cam);
      const cuts = [0, Math.floor(n / 3), Math.floor((2 * n) / 3), n];
      for (let i = 0; i < 3; i++) projectTileRange(input, packed, cuts[i], cuts[i + 1], f);
      const bins = binTiles(f);
      const tiles = f.tilesX * f.tilesY;
      const pixels = cam.width * cam.height;
      const ref = { rgb: new Float32Array(pixels * 3), alpha: new Float32Array(pixels) };
      compositeTileRange(f, bins, 0, tiles, ref.rgb, ref.alpha);
      const fast = prepareComposite(f, bins);
      expect(fast).not.toBeNull();
      if (!fast) return;
      const whole = { rgb: new Float32Array(pixels * 3), alpha: new Float32Array(pixels) };
      fast(0, tiles, whole.rgb, whole.alpha);
      expect(maxDiff(whole.rgb, ref.rgb)).toBeLessThanOrEqual(1e-6);
      expect(maxDiff(whole.alpha, ref.alpha)).toBeLessThanOrEqual(1e-6);
      expect(ref.alpha.some((a) => a > 0.5)).toBe(true);
      // Two tiles a call (the pool's chunk) into an image another compositor half filled: the
      // same floats, and no tile writes outside its own pixels.
      const chunked = { rgb: new Float32Array(pixels * 3).fill(7), alpha: new Float32Array(pixels).fill(7) };
      for (let t = 0; t < tiles; t += 2) fast(t, Math.min(tiles, t + 2), chunked.rgb, chunked.alpha);
      expect(maxDiff(chunked.rgb, whole.rgb)).toBe(0);
      expect(maxDiff(chunked.alpha, whole.alpha)).toBe(0);
    });
  }
});
