// LPIPS on wasm SIMD against the reference lpips.ts: features and distances on random images
// with random AlexNet-shaped weights (always runs), the module layout round trip, incremental
// distances in a slot bit-identical to full passes, and the official test vectors with the real
// weights (skipped when the weights folder is absent).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPngRgb } from '../../../../src/main/io/png';
import { loadLpipsWeights, resolveLpipsDir } from '../../../../src/main/lpips/weights';
import { lpipsFeatures, lpipsFromFeatures } from '../../../../src/shared/metrics/lpips';
import { featuresFromRegion, LpipsWasm, LpipsWasmNet, photoRegion } from '../../../../src/shared/metrics/wasm/lpips-wasm';
import { changedBox, dirtyRects, emitLpipsModule, packLpipsWeights } from '../../../../src/shared/metrics/wasm/lpips-module';
import type { RgbImage } from '../../../../src/shared/image/image';
import { instantiateWasm, type WasmMemory } from '../../../../src/shared/wasm/runtime';
import { ALEXNET_LAYERS } from '../../../../src/shared/metrics/lpips-weights';
import { randomImage, seeded } from '../random';
import { randomLpipsWeights } from './random-weights';
import { skipWithout } from '../../../helpers/optional';

const weights = randomLpipsWeights(2024);

describe('LpipsWasm with random AlexNet-shaped weights', () => {
  const wasm = new LpipsWasm(weights);

  it.each([
    [64, 64],
    [83, 70],
  ])('features and distance match the reference on %ix%i', async (w, h) => {
    const rand = seeded(w * 7 + h);
    const a = randomImage(w, h, rand);
    const b = randomImage(w, h, rand);
    const fa = lpipsFeatures(a, weights);
    const fb = lpipsFeatures(b, weights);
    const ref = lpipsFromFeatures(fa, fb, weights);
    const got = await wasm.features(a);
    expect(got.map((t) => [t.channels, t.height, t.width])).toEqual(fa.map((t) => [t.channels, t.height, t.width]));
    got.forEach((t, k) => {
      let maxErr = 0;
      let nonzero = 0;
      t.data.forEach((v, i) => {
        maxErr = Math.max(maxErr, Math.abs(v - fa[k].data[i]));
        if (v !== 0) nonzero++;
      });
      expect(nonzero).toBeGreaterThan(0);
      expect(maxErr).toBeLessThan(1e-5); // unit-norm features
    });
    const d = await wasm.distance(a, fb);
    expect(ref).toBeGreaterThan(0);
    expect(Math.abs(d - ref) / ref).toBeLessThan(1e-5);
    // Repeated calls reuse the padded buffers: same bits.
    expect(await wasm.distance(a, fb)).toBe(d);
    expect(await wasm.distance(b, fb)).toBeLessThan(1e-9);
  });

  it('round-trips features through the module layout and checks tap shapes', async () => {
    const img = randomImage(64, 64, seeded(3));
    const net = await wasm.net(64, 64);
    const f = net.features(img);
    expect(featuresFromRegion(photoRegion(f, net.plan), net.plan)).toEqual(f);
    expect(() => photoRegion(f.slice(0, 4), net.plan)).toThrow(/photo tap 4 is missing/);
    expect(() => net.features(randomImage(32, 64, seeded(1)))).toThrow(/image is 32x64, net is 64x64/);
  });

  it('skips white regions with bit-identical results', async () => {
    // White, with a noisy square inside and one touching a corner (border windows never skip).
    const w = 176;
    const h = 150;
    const rand = seeded(11);
    const img = randomImage(w, h, rand);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const inside = (x > 120 && x < 150 && y > 100 && y < 130) || (x < 12 && y > h - 15);
        if (!inside) img.data.fill(1, (y * w + x) * 3, (y * w + x) * 3 + 3);
      }
    }
    const packed = packLpipsWeights(weights);
    const run = async (skipUniform: boolean): Promise<Float32Array> => {
      const { plan, bytes } = emitLpipsModule(ALEXNET_LAYERS, h, w, { skipUniform });
      const ex = await instantiateWasm(bytes);
      const mem = (ex.memory as WasmMemory).buffer;
      new Float32Array(mem, plan.weightsPtr, plan.weightsFloats).set(packed);
      new Float32Array(mem, plan.rgbPtr, w * h * 3).set(img.data);
      new Int32Array(mem, plan.rectsPtr, plan.geometry.length * 4).set(dirtyRects(plan, 'all'));
      (ex.features as (base: number) => void)(0);
      // Layers 0 and 1 must have skippable blocks (and layer 0 some not) for the test to mean anything.
      const flags = plan.blockMasks.map((m) => new Uint8Array(mem, m.ptr, m.length).reduce((a, b) => a + b, 0));
      expect(flags[0]).toBeGreaterThan(0);
      expect(flags[0]).toBeLessThan(plan.blockMasks[0].length);
      expect(flags[1]).toBeGreaterThan(0);
      return new Float32Array(mem, plan.photoPtr, plan.photoFloats).slice();
    };
    const skipped = await run(true);
    const full = await run(false);
    expect(skipped.length).toBe(full.length);
    let differing = 0;
    for (let i = 0; i < full.length; i++) if (!Object.is(skipped[i], full[i])) differing++;
    expect(differing).toBe(0);
    const ref = lpipsFeatures(img, weights);
    const net = await wasm.net(w, h);
    const got = featuresFromRegion(skipped, net.plan);
    got.forEach((t, k) => t.data.forEach((v, i) => expect(Math.abs(v - ref[k].data[i])).toBeLessThan(1e-5)));
  });

  it('gives incremental distances in a slot bit-identical to full passes', async () => {
    const [w, h] = [120, 104];
    const rand = seeded(21);
    // A noisy object on white, as renders are; each edit changes a patch of it.
    const base = randomImage(w, h, rand);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if ((x - 60) ** 2 + (y - 52) ** 2 > 40 ** 2) base.data.fill(1, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const patch = (img: RgbImage, x0: number, y0: number, x1: number, y1: number): RgbImage => {
      const data = img.data.slice();
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) for (let c = 0; c < 3; c++) data[(y * w + x) * 3 + c] = rand();
      return { width: w, height: h, data };
    };
    const net = await wasm.net(w, h);
    const photo = photoRegion(net.features(randomImage(w, h, rand)), net.plan);
    const other = photoRegion(net.features(randomImage(w, h, rand)), net.plan);
    const a1 = patch(base, 50, 40, 56, 47); // inside
    const a2 = patch(a1, w - 3, h - 2, w - 1, h - 1); // bottom-right corner
    const a3 = patch(a2, 0, 0, 1, 0); // top-left corner, one row
    const a4 = patch(a3, 0, 30, w - 1, 31); // two full rows
    const sequence: [RgbImage, Float32Array, number][] = [
      [base, photo, 0],
      [base, photo, 0], // unchanged: no conv work at all
      [a1, photo, 0],
      [randomImage(w, h, rand), other, 1], // another slot in between
      [a2, photo, 0],
      [a3, photo, 0],
      [a4, other, 0], // another photo's distance in the same slot: the photo is not part of the slot's state
      [base, photo, 0],
    ];
    for (const [img, ph, slot] of sequence) {
      const full = net.distanceToRegion(img, ph);
      expect(net.distanceInSlot(img, ph, slot)).toBe(full);
    }
    // The edits did skip work: a small change recomputes only part of the first two layers.
    const box = changedBox(base.data, a1.data, w, h);
    expect(box).toEqual({ x0: 50, y0: 40, x1: 56, y1: 47 });
    const rects = dirtyRects(net.plan, box);
    const all = dirtyRects(net.plan, 'all');
    const area = (r: Int32Array, i: number): number => (r[i * 4 + 1] - r[i * 4]) * (r[i * 4 + 3] - r[i * 4 + 2]);
    expect(area(rects, 0)).toBeGreaterThan(0);
    expect(area(rects, 0)).toBeLessThan(area(all, 0) / 4);
    expect(area(rects, 1)).toBeLessThanOrEqual(area(all, 1) / 2);
    expect(changedBox(base.data, base.data, w, h)).toBeNull();
    expect(() => net.distanceInSlot(base, photo, net.plan.slots - 1)).toThrow(/slot 8 is not one of 0..7/);
  });

  it('refuses images too small for the network', async () => {
    await expect(wasm.features(randomImage(20, 20, seeded(1)))).rejects.toThrow(/too small/);
  });

  it('refuses packed weights of the wrong length, naming both lengths', async () => {
    const { plan } = emitLpipsModule(ALEXNET_LAYERS, 64, 64);
    const short = new Float32Array(plan.weightsFloats - 1);
    await expect(LpipsWasmNet.create(short, 64, 64)).rejects.toThrow(`LPIPS wasm: packed weights hold ${plan.weightsFloats - 1} floats, expected ${plan.weightsFloats}`);
  });
});

const dir = resolveLpipsDir();
const vectorsPath = dir ? join(dir, 'test-vectors.json') : '';

describe.skipIf(skipWithout('lpips', dir !== null && existsSync(vectorsPath)))('LpipsWasm on the official test vectors', () => {
  const real = dir ? loadLpipsWeights({ dir }) : null;
  const pairs = existsSync(vectorsPath) ? (JSON.parse(readFileSync(vectorsPath, 'utf8')) as { pairs: { a: string; b: string; lpips: number }[] }).pairs : [];

  it.each(pairs)('$a vs $b = $lpips', async ({ a, b, lpips: expected }) => {
    if (!real || !dir) throw new Error('unreachable: suite is skipped without weights');
    const wasm = new LpipsWasm(real);
    const imgA = readPngRgb(join(dir, a));
    const imgB = readPngRgb(join(dir, b));
    const value = await wasm.distance(imgA, await wasm.features(imgB));
    expect(Math.abs(value - expected)).toBeLessThan(1e-3);
  });
});
