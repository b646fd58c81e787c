// LPIPS CPU reference: conv/pool against naive definitions, and the official test vectors of
// the weights folder (skipped when the weights are absent).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPngRgb } from '../../../src/main/io/png';
import { loadLpipsWeights, resolveLpipsDir } from '../../../src/main/lpips/weights';
import { conv2dRelu, lpips, lpipsFeatures, lpipsFromFeatures, maxPool, type FeatureMap } from '../../../src/shared/metrics/lpips';
import type { LpipsConv } from '../../../src/shared/metrics/lpips-weights';
import { randomImage, seeded } from './random';
import { skipWithout } from '../../helpers/optional';

function naiveConv(x: FeatureMap, l: LpipsConv, o: number, oy: number, ox: number): number {
  let acc = l.bias[o];
  for (let i = 0; i < l.inChannels; i++) {
    for (let ky = 0; ky < l.kernel; ky++) {
      for (let kx = 0; kx < l.kernel; kx++) {
        const iy = oy * l.stride - l.pad + ky;
        const ix = ox * l.stride - l.pad + kx;
        if (iy < 0 || ix < 0 || iy >= x.height || ix >= x.width) continue;
        acc += l.weight[((o * l.inChannels + i) * l.kernel + ky) * l.kernel + kx] * x.data[(i * x.height + iy) * x.width + ix];
      }
    }
  }
  return Math.max(0, acc);
}

describe('conv2dRelu and maxPool', () => {
  it.each([
    { kernel: 11, stride: 4, pad: 2, h: 23, w: 19 },
    { kernel: 5, stride: 1, pad: 2, h: 7, w: 6 },
    { kernel: 3, stride: 1, pad: 1, h: 4, w: 5 },
  ])('conv k$kernel s$stride p$pad on $h x $w matches the definition', ({ kernel, stride, pad, h, w }) => {
    const rand = seeded(kernel * 31 + h);
    const inC = 3;
    const outC = 4;
    const layer: LpipsConv = {
      name: 'test', outChannels: outC, inChannels: inC, kernel, stride, pad, poolBefore: false,
      weight: Float32Array.from({ length: outC * inC * kernel * kernel }, () => rand() - 0.5),
      bias: Float32Array.from({ length: outC }, () => rand() - 0.5),
    };
    const x: FeatureMap = { channels: inC, height: h, width: w, data: Float32Array.from({ length: inC * h * w }, () => rand() - 0.5) };
    const y = conv2dRelu(x, layer);
    expect(y.height).toBe(Math.floor((h + 2 * pad - kernel) / stride) + 1);
    expect(y.width).toBe(Math.floor((w + 2 * pad - kernel) / stride) + 1);
    let positives = 0;
    for (let o = 0; o < outC; o++) {
      for (let oy = 0; oy < y.height; oy++) {
        for (let ox = 0; ox < y.width; ox++) {
          const v = y.data[(o * y.height + oy) * y.width + ox];
          expect(v).toBeCloseTo(naiveConv(x, layer, o, oy, ox), 5);
          if (v > 0) positives++;
        }
      }
    }
    expect(positives).toBeGreaterThan(0);
  });

  it('max-pools 3x3 windows with stride 2', () => {
    const x: FeatureMap = { channels: 1, height: 5, width: 5, data: Float32Array.from({ length: 25 }, (_, i) => i) };
    const y = maxPool(x);
    expect([y.height, y.width]).toEqual([2, 2]);
    expect(Array.from(y.data)).toEqual([12, 14, 22, 24]); // bottom-right of each window
  });
});

const dir = resolveLpipsDir();
const vectorsPath = dir ? join(dir, 'test-vectors.json') : '';

describe.skipIf(skipWithout('lpips', dir !== null && existsSync(vectorsPath)))('lpips on the official test vectors', () => {
  const weights = dir ? loadLpipsWeights({ dir }) : null;
  const pairs = existsSync(vectorsPath) ? (JSON.parse(readFileSync(vectorsPath, 'utf8')) as { pairs: { a: string; b: string; lpips: number }[] }).pairs : [];

  it.each(pairs)('$a vs $b = $lpips', ({ a, b, lpips: expected }) => {
    if (!weights || !dir) throw new Error('unreachable: suite is skipped without weights');
    const value = lpips(readPngRgb(join(dir, a)), readPngRgb(join(dir, b)), weights);
    expect(Math.abs(value - expected)).toBeLessThan(1e-3);
  });

  it('is symmetric and features can be cached', () => {
    if (!weights) throw new Error('unreachable');
    const rand = seeded(9);
    const a = randomImage(48, 40, rand);
    const b = randomImage(48, 40, rand);
    const fa = lpipsFeatures(a, weights);
    expect(fa.map((f) => f.channels)).toEqual([64, 192, 384, 256, 256]);
    const d = lpipsFromFeatures(fa, lpipsFeatures(b, weights), weights);
    expect(d).toBeGreaterThan(0.05);
    expect(lpips(b, a, weights)).toBeCloseTo(d, 6);
  });
});
