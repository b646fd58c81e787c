// LPIPS AlexNet on the GPU: uploads the weights once (conv weights transposed for vec4 loads)
// and builds, for a batch size and image size, the passes from RGB to the five normalised taps.
// Input of a plan: rgb [B, H, W, 3]. Output: taps, each [B, C, h, w] unit vectors per pixel.
// Invariant: shapes and padding follow ALEXNET_LAYERS exactly as the CPU reference lpips.ts.
import { ALEXNET_LAYERS, LPIPS_SCALE, LPIPS_SHIFT, type LpipsWeights } from '../lpips-weights';
import { type ComputePass, GpuArena, MetricKernels, groups } from './arena';
import { METRIC_KERNELS as K } from './kernels';

export interface TapBuffer {
  buffer: GPUBuffer; // [B, C, h, w]
  channels: number;
  height: number;
  width: number;
}

export interface NetPlan {
  passes: ComputePass[];
  taps: TapBuffer[]; // 5
}

const pooled = (n: number): number => Math.floor((n - 3) / 2) + 1;

/** Spatial sizes of the five taps for an image of height x width (CPU and GPU agree). */
export function lpipsTapSizes(height: number, width: number): { height: number; width: number }[] {
  const sizes: { height: number; width: number }[] = [];
  let h = height;
  let w = width;
  for (const l of ALEXNET_LAYERS) {
    if (l.poolBefore) {
      h = pooled(h);
      w = pooled(w);
    }
    h = Math.floor((h + 2 * l.pad - l.kernel) / l.stride) + 1;
    w = Math.floor((w + 2 * l.pad - l.kernel) / l.stride) + 1;
    if (h < 1 || w < 1) throw new Error(`LPIPS needs images of at least 31x31, got ${width}x${height}`);
    sizes.push({ height: h, width: w });
  }
  return sizes;
}

/** The conv stage for a kernel size; each file hard-codes its kernel (and stride) to unroll it. */
function convKernel(kernel: number, stride: number): typeof K.lpipsConv3 {
  if (kernel === 3 && stride === 1) return K.lpipsConv3;
  if (kernel === 5 && stride === 1) return K.lpipsConv5;
  if (kernel === 11 && stride === 4) return K.lpipsConv11;
  throw new Error(`no LPIPS conv stage for kernel ${kernel}, stride ${stride}`);
}

export class LpipsNetGpu {
  private constructor(
    private readonly kernels: MetricKernels,
    private readonly arena: GpuArena,
    private readonly convWeights: GPUBuffer[], // [Cin * K * K, Cout] per layer
    private readonly convBias: GPUBuffer[], // [Cout]
    readonly lin: GPUBuffer[], // [C] per tap
  ) {}

  static create(kernels: MetricKernels, weights: LpipsWeights): LpipsNetGpu {
    const arena = new GpuArena(kernels.device);
    const convWeights = weights.conv.map((l) => {
      const kk = l.inChannels * l.kernel * l.kernel;
      const t = new Float32Array(kk * l.outChannels);
      for (let o = 0; o < l.outChannels; o++) for (let k = 0; k < kk; k++) t[k * l.outChannels + o] = l.weight[o * kk + k];
      return arena.upload(t, `${l.name}.weight^T`);
    });
    const convBias = weights.conv.map((l) => arena.upload(l.bias, `${l.name}.bias`));
    const lin = weights.lin.map((w, k) => arena.upload(w, `lin${k}`));
    return new LpipsNetGpu(kernels, arena, convWeights, convBias, lin);
  }

  /** Passes and buffers (owned by `arena`) computing the taps of `batch` images in `rgb`. */
  plan(arena: GpuArena, batch: number, height: number, width: number, rgb: GPUBuffer): NetPlan {
    const k = this.kernels;
    const sizes = lpipsTapSizes(height, width);
    const passes: ComputePass[] = [];
    const taps: TapBuffer[] = [];
    const pad0 = ALEXNET_LAYERS[0].pad;
    let cur = arena.storage(batch * 3 * (height + 2 * pad0) * (width + 2 * pad0) * 4 + 64, 'lpips input');
    const input = { width, height, batch, pad: pad0, shift: [...LPIPS_SHIFT, 0], scale: [...LPIPS_SCALE, 1] };
    passes.push(k.pass(arena, K.lpipsInput, input, { rgb, out: cur }, [groups(width * height), batch, 1]));
    let h = height;
    let w = width;
    let channels = 3;
    ALEXNET_LAYERS.forEach((l, i) => {
      if (l.poolBefore) {
        const ph = pooled(h);
        const pw = pooled(w);
        const out = arena.storage(batch * channels * (ph + 2 * l.pad) * (pw + 2 * l.pad) * 4 + 64, `pool before ${l.name}`);
        const pool = { channels, in_height: h, in_width: w, out_height: ph, out_width: pw, out_pad: l.pad, batch };
        passes.push(k.pass(arena, K.lpipsMaxpool, pool, { input: cur, output: out }, [groups(ph * pw), batch * channels, 1]));
        cur = out;
        h = ph;
        w = pw;
      }
      const { height: oh, width: ow } = sizes[i];
      // The next layer's padding is applied here, unless a pool (which reads unpadded) follows.
      const next = ALEXNET_LAYERS[i + 1];
      const outPad = next && !next.poolBefore ? next.pad : 0;
      const out = arena.storage(batch * l.outChannels * (oh + 2 * outPad) * (ow + 2 * outPad) * 4 + 64, `${l.name} out`);
      const blocks = Math.ceil(ow / 4);
      const conv = {
        in_channels: channels, in_height: h + 2 * l.pad, in_width: w + 2 * l.pad, out_channels: l.outChannels, out_height: oh, out_width: ow,
        kernel: l.kernel, stride: l.stride, out_pad: outPad, batch, blocks_per_row: blocks,
      };
      const buffers = { input: cur, weight: this.convWeights[i], bias: this.convBias[i], output: out };
      passes.push(k.pass(arena, convKernel(l.kernel, l.stride), conv, buffers, [groups(oh * blocks), l.outChannels / 8, batch]));
      const tap = arena.storage(batch * l.outChannels * oh * ow * 4, `tap ${i}`);
      const norm = { channels: l.outChannels, height: oh, width: ow, pad: outPad, batch };
      passes.push(k.pass(arena, K.lpipsNormalize, norm, { input: out, output: tap }, [groups(oh * ow), batch, 1]));
      taps.push({ buffer: tap, channels: l.outChannels, height: oh, width: ow });
      cur = out;
      h = oh;
      w = ow;
      channels = l.outChannels;
    });
    return { passes, taps };
  }

  destroy(): void {
    this.arena.destroy();
  }
}
