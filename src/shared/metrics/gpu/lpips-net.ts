// LPIPS AlexNet on the GPU: uploads the weights once (conv weights transposed for vec4 loads)
// and builds, for a batch size and image size, the passes from RGB to the five normalised taps.
// Input of a plan: rgb [B, H, W, 3]. Output: taps, each [B, C, h, w] unit vectors per pixel.
// Invariant: shapes and padding follow ALEXNET_LAYERS exactly as the CPU reference lpips.ts.
import { ALEXNET_LAYERS, LPIPS_SCALE, LPIPS_SHIFT, type LpipsWeights } from '../lpips-weights';
import { type ComputePass, GpuArena, MetricKernels, groups } from './arena';

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

/** The conv stage file for a kernel size; each file hard-codes its kernel (and stride) to unroll it. */
function convShader(kernel: number, stride: number): string {
  const ok = (kernel === 3 || kernel === 5) ? stride === 1 : kernel === 11 && stride === 4;
  if (!ok) throw new Error(`no LPIPS conv stage for kernel ${kernel}, stride ${stride}`);
  return `lpips_conv${kernel}.wgsl`;
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
    const params = new ArrayBuffer(48);
    new Uint32Array(params, 0, 4).set([width, height, batch, pad0]);
    new Float32Array(params, 16, 8).set([...LPIPS_SHIFT, 0, ...LPIPS_SCALE, 1]);
    passes.push(k.pass(arena, 'lpips_input.wgsl', params, [rgb, cur], [groups(width * height), batch, 1]));
    let h = height;
    let w = width;
    let channels = 3;
    ALEXNET_LAYERS.forEach((l, i) => {
      if (l.poolBefore) {
        const ph = pooled(h);
        const pw = pooled(w);
        const out = arena.storage(batch * channels * (ph + 2 * l.pad) * (pw + 2 * l.pad) * 4 + 64, `pool before ${l.name}`);
        passes.push(k.pass(arena, 'lpips_maxpool.wgsl', [channels, h, w, ph, pw, l.pad, batch, 0], [cur, out], [groups(ph * pw), batch * channels, 1]));
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
      passes.push(
        k.pass(
          arena,
          convShader(l.kernel, l.stride),
          [channels, h + 2 * l.pad, w + 2 * l.pad, l.outChannels, oh, ow, l.kernel, l.stride, outPad, batch, blocks, 0],
          [cur, this.convWeights[i], this.convBias[i], out],
          [groups(oh * blocks), l.outChannels / 8, batch],
        ),
      );
      const tap = arena.storage(batch * l.outChannels * oh * ow * 4, `tap ${i}`);
      passes.push(k.pass(arena, 'lpips_normalize.wgsl', [l.outChannels, oh, ow, outPad, batch, 0, 0, 0], [out, tap], [groups(oh * ow), batch, 1]));
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
