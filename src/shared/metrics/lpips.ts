// LPIPS (Zhang et al. 2018; AlexNet, v0.1) CPU reference: the truth for the GPU version.
// Input: RgbImage in [0, 1] (scaled to [-1, 1], then ScalingLayer), LpipsWeights.
// Output: the distance, or per-image features so fixed photos are computed once.
// Invariant: features are the five post-ReLU taps, unit-normalised per pixel (norm + 1e-10).
import type { RgbImage } from '../image/image';
import { assertSameSize } from './psnr';
import { LPIPS_EPS, LPIPS_SCALE, LPIPS_SHIFT, type LpipsConv, type LpipsWeights } from './lpips-weights';

/** A feature map, channel-major. */
export interface FeatureMap {
  channels: number;
  height: number;
  width: number;
  data: Float32Array; // [C, H, W]
}

/** The five normalised taps of one image. */
export type LpipsFeatures = FeatureMap[];

/** Network input: [3, H, W] planes of (2v - 1 - shift) / scale. */
export function lpipsInput(img: RgbImage): FeatureMap {
  const { width: w, height: h } = img;
  const data = new Float32Array(3 * w * h);
  for (let c = 0; c < 3; c++) {
    for (let i = 0; i < w * h; i++) data[c * w * h + i] = (2 * img.data[i * 3 + c] - 1 - LPIPS_SHIFT[c]) / LPIPS_SCALE[c];
  }
  return { channels: 3, height: h, width: w, data };
}

/** conv2d (square kernel, zero padding) + bias + ReLU, torch semantics (floor output size). */
export function conv2dRelu(x: FeatureMap, layer: LpipsConv): FeatureMap {
  const { kernel: k, stride: s, pad: p, outChannels: oc } = layer;
  if (x.channels !== layer.inChannels) throw new Error(`${layer.name}: expected ${layer.inChannels} channels, got ${x.channels}`);
  const ho = Math.floor((x.height + 2 * p - k) / s) + 1;
  const wo = Math.floor((x.width + 2 * p - k) / s) + 1;
  const out = new Float32Array(oc * ho * wo);
  const acc = new Float64Array(ho * wo);
  for (let o = 0; o < oc; o++) {
    acc.fill(layer.bias[o]);
    for (let i = 0; i < x.channels; i++) {
      const plane = i * x.height * x.width;
      for (let ky = 0; ky < k; ky++) {
        for (let kx = 0; kx < k; kx++) {
          const w = layer.weight[((o * x.channels + i) * k + ky) * k + kx];
          // Output columns whose input column ox*s - p + kx is inside [0, W).
          const x0 = Math.max(0, Math.ceil((p - kx) / s));
          const x1 = Math.min(wo - 1, Math.floor((x.width - 1 + p - kx) / s));
          for (let oy = 0; oy < ho; oy++) {
            const iy = oy * s - p + ky;
            if (iy < 0 || iy >= x.height) continue;
            const row = plane + iy * x.width - p + kx;
            const orow = oy * wo;
            for (let ox = x0; ox <= x1; ox++) acc[orow + ox] += w * x.data[row + ox * s];
          }
        }
      }
    }
    for (let j = 0; j < ho * wo; j++) out[o * ho * wo + j] = acc[j] > 0 ? acc[j] : 0;
  }
  return { channels: oc, height: ho, width: wo, data: out };
}

/** 3x3 max pool, stride 2, no padding (floor output size). */
export function maxPool(x: FeatureMap): FeatureMap {
  const ho = Math.floor((x.height - 3) / 2) + 1;
  const wo = Math.floor((x.width - 3) / 2) + 1;
  const out = new Float32Array(x.channels * ho * wo);
  for (let c = 0; c < x.channels; c++) {
    for (let oy = 0; oy < ho; oy++) {
      for (let ox = 0; ox < wo; ox++) {
        let m = -Infinity;
        for (let dy = 0; dy < 3; dy++) {
          for (let dx = 0; dx < 3; dx++) m = Math.max(m, x.data[(c * x.height + oy * 2 + dy) * x.width + ox * 2 + dx]);
        }
        out[(c * ho + oy) * wo + ox] = m;
      }
    }
  }
  return { channels: x.channels, height: ho, width: wo, data: out };
}

/** Divides each pixel's feature vector by (its L2 norm + 1e-10). */
export function normaliseChannels(x: FeatureMap): FeatureMap {
  const n = x.height * x.width;
  const out = new Float32Array(x.data.length);
  for (let j = 0; j < n; j++) {
    let sq = 0;
    for (let c = 0; c < x.channels; c++) sq += x.data[c * n + j] ** 2;
    const inv = 1 / (Math.sqrt(sq) + LPIPS_EPS);
    for (let c = 0; c < x.channels; c++) out[c * n + j] = x.data[c * n + j] * inv;
  }
  return { ...x, data: out };
}

/** The five normalised AlexNet taps of an image; cache these for photos that never change. */
export function lpipsFeatures(img: RgbImage, weights: LpipsWeights): LpipsFeatures {
  const taps: LpipsFeatures = [];
  let x = lpipsInput(img);
  for (const layer of weights.conv) {
    if (layer.poolBefore) x = maxPool(x);
    x = conv2dRelu(x, layer);
    taps.push(normaliseChannels(x));
  }
  return taps;
}

/** LPIPS from two images' features: sum over taps of the spatial mean of lin-weighted squared diffs. */
export function lpipsFromFeatures(a: LpipsFeatures, b: LpipsFeatures, weights: LpipsWeights): number {
  let total = 0;
  a.forEach((fa, k) => {
    const fb = b[k];
    if (!fb || fa.data.length !== fb.data.length) throw new Error(`LPIPS: tap ${k} sizes differ`);
    const n = fa.height * fa.width;
    const lin = weights.lin[k];
    let sum = 0;
    for (let c = 0; c < fa.channels; c++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += (fa.data[c * n + j] - fb.data[c * n + j]) ** 2;
      sum += lin[c] * s;
    }
    total += sum / n;
  });
  return total;
}

/** LPIPS distance between two RGB images in [0, 1]. */
export function lpips(a: RgbImage, b: RgbImage, weights: LpipsWeights): number {
  assertSameSize(a, b);
  return lpipsFromFeatures(lpipsFeatures(a, weights), lpipsFeatures(b, weights), weights);
}
