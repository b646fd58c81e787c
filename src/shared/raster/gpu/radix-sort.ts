// Host side of the portable GPU radix sort (shaders/radix_sort.wgsl): sizes its scratch buffers,
// writes one SortParams uniform per pass and encodes the five dispatches of every pass into a
// compute pass. Also radixSortGpu, a one-shot sort of (key, value) arrays with the same signature
// as the CPU reference radixSortPairs (plus the device), for the parity test and the benchmark.
// Invariant: the number of passes is even, so the sorted pairs end in the `a` buffers they
// started in; the `b` buffers are scratch. Keys beyond counts[countIndex] are not touched.
import type { ShaderLibrary } from '../../gpu/compose';
import { Growable, Readback, STORAGE } from '../../gpu/buffers';
import { BufferUsage } from '../../gpu/flags';
import { bindKernel, getKernel, type Kernel } from '../../gpu/kernel';
import { writeStruct } from '../../gpu/struct';
import { RASTER_WORKGROUP } from '../../gpu/constants';
import { RADIX_BITS } from '../cpu/radix';
import { RASTER_KERNELS, SORT_PARAMS } from './layouts';

type RadixStage = 'radixHist' | 'radixScanBlocks' | 'radixScanTop' | 'radixScanApply' | 'radixScatter';
const STAGES: RadixStage[] = ['radixHist', 'radixScanBlocks', 'radixScanTop', 'radixScanApply', 'radixScatter'];
type RadixKernel = Kernel<Extract<keyof (typeof RASTER_KERNELS)['radixHist']['bindings'], string>>;

/** Most chunks (invocations) per sort: bounds the histogram at 256 x this many counters. */
const MAX_CHUNKS = 8192;
const MIN_CHUNK = 64;

export interface SortBuffers {
  counts: GPUBuffer; // u32 array; counts[countIndex] = number of keys
  aKeys: GPUBuffer;
  aVals: GPUBuffer;
  bKeys: GPUBuffer;
  bVals: GPUBuffer;
}

/** Even number of 8-bit passes that covers `bits` key bits. */
export function sortPasses(bits: number): number {
  const p = Math.max(1, Math.ceil(bits / RADIX_BITS));
  return p + (p % 2);
}

export class RadixSorter {
  private readonly kernels: Record<RadixStage, RadixKernel>;
  private readonly hist: Growable;
  private readonly blockSums: Growable;
  private readonly uniforms: GPUBuffer[] = [];
  private groups: GPUBindGroup[] = [];
  private chunks = 0;

  constructor(private readonly device: GPUDevice, library: ShaderLibrary) {
    this.kernels = Object.fromEntries(STAGES.map((s) => [s, getKernel(device, library, RASTER_KERNELS[s])])) as Record<RadixStage, RadixKernel>;
    this.hist = new Growable(device, 'radix histogram');
    this.blockSums = new Growable(device, 'radix block sums');
  }

  /** Prepares a sort of at most `maxCount` keys of `bits` significant bits; counts[countIndex] holds the count. */
  prepare(buffers: SortBuffers, maxCount: number, bits: number, countIndex: number): void {
    const chunk = Math.max(MIN_CHUNK, Math.ceil(maxCount / MAX_CHUNKS));
    this.chunks = Math.max(1, Math.ceil(maxCount / chunk));
    const hist = this.hist.ensure(this.chunks * 256 * 4);
    const sums = this.blockSums.ensure(this.chunks * 4);
    const passes = sortPasses(bits);
    this.groups = [];
    for (let p = 0; p < passes; p++) {
      if (!this.uniforms[p]) {
        this.uniforms[p] = this.device.createBuffer({ label: `radix pass ${p}`, size: SORT_PARAMS.bytes, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
      }
      this.device.queue.writeBuffer(this.uniforms[p], 0, writeStruct(SORT_PARAMS, { shift: p * RADIX_BITS, chunk, chunks: this.chunks, count_index: countIndex }));
      const even = p % 2 === 0;
      this.groups.push(
        bindKernel(this.device, this.kernels.radixHist, {
          sp: this.uniforms[p],
          counts: buffers.counts,
          keys_in: even ? buffers.aKeys : buffers.bKeys,
          vals_in: even ? buffers.aVals : buffers.bVals,
          keys_out: even ? buffers.bKeys : buffers.aKeys,
          vals_out: even ? buffers.bVals : buffers.aVals,
          hist,
          block_sums: sums,
        }),
      );
    }
  }

  /** Encodes every pass (the five kernels share one binding layout, so one bind group per pass). */
  encode(pass: GPUComputePassEncoder): void {
    const groups = Math.ceil(this.chunks / RASTER_WORKGROUP);
    for (const group of this.groups) {
      for (const stage of STAGES) {
        pass.setPipeline(this.kernels[stage].pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups(stage === 'radixScanTop' ? 1 : groups);
      }
    }
  }

  destroy(): void {
    this.hist.destroy();
    this.blockSums.destroy();
    for (const u of this.uniforms) u.destroy();
  }
}

/** Sorts (key, value) pairs by the low `keyBits` bits on the GPU, stably: radixSortPairs' twin. */
export async function radixSortGpu(
  device: GPUDevice,
  library: ShaderLibrary,
  keys: Uint32Array,
  values: Uint32Array,
  keyBits = 32,
): Promise<{ keys: Uint32Array; values: Uint32Array; gpuMs: number }> {
  const n = keys.length;
  const bytes = Math.max(16, n * 4);
  const make = (label: string): GPUBuffer => device.createBuffer({ label, size: Math.ceil(bytes / 16) * 16, usage: STORAGE });
  const buffers: SortBuffers = { counts: make('sort counts'), aKeys: make('keys a'), aVals: make('vals a'), bKeys: make('keys b'), bVals: make('vals b') };
  const sorter = new RadixSorter(device, library);
  try {
    device.queue.writeBuffer(buffers.counts, 0, Uint32Array.from([n, n, 0, 0]));
    device.queue.writeBuffer(buffers.aKeys, 0, ownBuffer(keys));
    device.queue.writeBuffer(buffers.aVals, 0, ownBuffer(values));
    sorter.prepare(buffers, n, keyBits, 0);
    await device.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    const encoder = device.createCommandEncoder({ label: 'radix sort' });
    const pass = encoder.beginComputePass({ label: 'radix sort' });
    sorter.encode(pass);
    pass.end();
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    const gpuMs = performance.now() - t0;
    const readback = new Readback(device);
    const k = readback.add(n * 4);
    const v = readback.add(n * 4);
    const copy = device.createCommandEncoder({ label: 'radix readback' });
    readback.copy(copy, k, buffers.aKeys, n * 4);
    readback.copy(copy, v, buffers.aVals, n * 4);
    device.queue.submit([copy.finish()]);
    const data = await readback.read();
    return { keys: new Uint32Array(data[k], 0, n), values: new Uint32Array(data[v], 0, n), gpuMs };
  } finally {
    sorter.destroy();
    for (const b of Object.values(buffers)) b.destroy();
  }
}

/** The array itself when it views a plain ArrayBuffer (what writeBuffer takes), else a copy. */
export function ownBuffer<T extends Uint32Array | Float32Array>(a: T): T & { buffer: ArrayBuffer } {
  if (a.buffer instanceof ArrayBuffer) return a as T & { buffer: ArrayBuffer };
  return a.slice() as T & { buffer: ArrayBuffer };
}
