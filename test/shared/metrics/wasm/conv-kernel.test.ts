// The wasm SIMD conv kernel against the reference conv2dRelu on random small layers: odd sizes,
// strides 1-4, paddings 0-2, input channels not a multiple of 4, output channels padded up to
// the block, and both register-block shapes; plus the weight packing layout.
import { describe, expect, it } from 'vitest';
import { emitModule } from '../../../../src/shared/wasm/emitter';
import { emitConv, packConvWeights, paddedChannels } from '../../../../src/shared/metrics/wasm/conv-kernel';
import { instantiateWasm, type WasmMemory } from '../../../../src/shared/wasm/runtime';
import { conv2dRelu, type FeatureMap } from '../../../../src/shared/metrics/lpips';
import type { LpipsConv } from '../../../../src/shared/metrics/lpips-weights';
import { seeded } from '../random';

function randomLayer(rand: () => number, inC: number, outC: number, kernel: number, stride: number, pad: number): LpipsConv {
  return {
    name: 'test', inChannels: inC, outChannels: outC, kernel, stride, pad, poolBefore: false,
    weight: Float32Array.from({ length: outC * inC * kernel * kernel }, () => rand() - 0.5),
    bias: Float32Array.from({ length: outC }, () => rand() - 0.5),
  };
}

/** Runs the emitted kernel on `x` (channel-major) and returns its output as [OC, Ho, Wo]. */
async function wasmConv(x: FeatureMap, layer: LpipsConv, m: number, n: number): Promise<FeatureMap> {
  const { inChannels: c, kernel: k, stride: s, pad: p, outChannels: oc } = layer;
  const ho = Math.floor((x.height + 2 * p - k) / s) + 1;
  const wo = Math.floor((x.width + 2 * p - k) / s) + 1;
  const ocp = paddedChannels(oc, m);
  const woBlocks = Math.ceil(wo / n);
  const wp = Math.max(x.width + 2 * p, (woBlocks * n - 1) * s + k);
  const hp = x.height + 2 * p;
  const packed = packConvWeights(layer, m);
  const al = (b: number) => Math.ceil(b / 16) * 16;
  const wPtr = 0;
  const bPtr = al(packed.weight.length * 4);
  const inPtr = bPtr + al(ocp * 4);
  const outPtr = inPtr + al(hp * wp * c * 4);
  const end = outPtr + ho * woBlocks * n * ocp * 4;
  const f = emitConv({ inChannels: c, kernel: k, stride: s, outChannelsPadded: ocp, m, n });
  const ex = await instantiateWasm(emitModule([f], Math.ceil(end / 65536) + 1));
  const mem = (ex.memory as WasmMemory).buffer;
  new Float32Array(mem, wPtr, packed.weight.length).set(packed.weight);
  new Float32Array(mem, bPtr, ocp).set(packed.bias);
  const input = new Float32Array(mem, inPtr, hp * wp * c);
  for (let i = 0; i < c; i++) {
    for (let y = 0; y < x.height; y++) {
      for (let xx = 0; xx < x.width; xx++) input[((y + p) * wp + xx + p) * c + i] = x.data[(i * x.height + y) * x.width + xx];
    }
  }
  (ex[f.name] as (...a: number[]) => void)(inPtr, wPtr, bPtr, outPtr, 0, ho, 0, woBlocks, woBlocks, ocp / (4 * m), wp * c * 4, woBlocks * n * ocp * 4, 0);
  const out = new Float32Array(mem, outPtr, ho * woBlocks * n * ocp);
  const data = new Float32Array(oc * ho * wo);
  for (let o = 0; o < oc; o++) {
    for (let y = 0; y < ho; y++) for (let xx = 0; xx < wo; xx++) data[(o * ho + y) * wo + xx] = out[(y * woBlocks * n + xx) * ocp + o];
  }
  return { channels: oc, height: ho, width: wo, data };
}

describe('emitConv', () => {
  it.each([
    { inC: 3, outC: 8, kernel: 11, stride: 4, pad: 2, h: 23, w: 19, m: 2, n: 4 },
    { inC: 5, outC: 12, kernel: 5, stride: 1, pad: 2, h: 9, w: 7, m: 2, n: 4 },
    { inC: 7, outC: 16, kernel: 3, stride: 1, pad: 1, h: 6, w: 11, m: 4, n: 2 },
    { inC: 4, outC: 3, kernel: 3, stride: 2, pad: 0, h: 10, w: 13, m: 1, n: 3 },
    { inC: 1, outC: 9, kernel: 1, stride: 1, pad: 0, h: 5, w: 5, m: 2, n: 4 },
  ])('matches conv2dRelu: $inC->$outC k$kernel s$stride p$pad on $h x $w, block $m x $n', async ({ inC, outC, kernel, stride, pad, h, w, m, n }) => {
    const rand = seeded(inC * 1000 + outC * 37 + kernel * 7 + h);
    const layer = randomLayer(rand, inC, outC, kernel, stride, pad);
    const x: FeatureMap = { channels: inC, height: h, width: w, data: Float32Array.from({ length: inC * h * w }, () => rand() * 2 - 1) };
    const ref = conv2dRelu(x, layer);
    const got = await wasmConv(x, layer, m, n);
    expect([got.height, got.width]).toEqual([ref.height, ref.width]);
    let scale = 0;
    let positives = 0;
    for (const v of ref.data) {
      scale = Math.max(scale, v);
      if (v > 0) positives++;
    }
    expect(positives).toBeGreaterThan(0);
    expect(positives).toBeLessThan(ref.data.length); // ReLU clipped something
    for (let i = 0; i < ref.data.length; i++) expect(Math.abs(got.data[i] - ref.data[i])).toBeLessThanOrEqual(1e-5 * scale);
  });

  it('refuses padded channel counts that are not whole blocks', () => {
    expect(() => emitConv({ inChannels: 3, kernel: 3, stride: 1, outChannelsPadded: 12, m: 2, n: 4 })).toThrow(/multiple of 8/);
  });
});

describe('packConvWeights', () => {
  it('lays weights out [OCp/4M][K][K][C][4M] with zeroed padding channels', () => {
    const rand = seeded(5);
    const layer = randomLayer(rand, 2, 5, 3, 1, 1);
    const { weight, bias } = packConvWeights(layer, 1);
    expect(weight).toHaveLength(8 * 2 * 9);
    expect(Array.from(bias.subarray(0, 5))).toEqual(Array.from(layer.bias));
    expect(Array.from(bias.subarray(5))).toEqual([0, 0, 0]);
    // o = 6 is block 1, lane 2 (padding); o = 4 is block 1, lane 0: w[4][1][2][0].
    expect(weight[(((1 * 3 + 2) * 3 + 0) * 2 + 1) * 4 + 0]).toBe(layer.weight[((4 * 2 + 1) * 3 + 2) * 3 + 0]);
    expect(weight[(((1 * 3 + 2) * 3 + 0) * 2 + 1) * 4 + 2]).toBe(0);
  });
});
