// Small WebGPU buffer helpers: growable storage buffers and staging readbacks (layouts and bind
// groups come from kernel.ts). Inputs: a GPUDevice. Invariant: a Growable keeps its buffer until
// a request exceeds its size, so repeated calls of the same size allocate nothing.
import { BufferUsage, MapMode } from './flags';

export const STORAGE = BufferUsage.STORAGE | BufferUsage.COPY_DST | BufferUsage.COPY_SRC;

/** A buffer that is replaced by a larger one on demand; `version` changes when it is. */
export class Growable {
  private current: GPUBuffer | null = null;
  private size = 0;
  version = 0;

  constructor(
    private readonly device: GPUDevice,
    private readonly label: string,
    private readonly usage: number = STORAGE,
  ) {}

  /** The buffer, at least `bytes` long (and at least 16 bytes, as empty bindings are invalid). */
  ensure(bytes: number): GPUBuffer {
    const need = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (!this.current || this.size < need) {
      this.current?.destroy();
      this.current = this.device.createBuffer({ label: this.label, size: need, usage: this.usage });
      this.size = need;
      this.version++;
    }
    return this.current;
  }

  get buffer(): GPUBuffer {
    if (!this.current) throw new Error(`buffer '${this.label}' used before ensure()`);
    return this.current;
  }

  destroy(): void {
    this.current?.destroy();
    this.current = null;
    this.size = 0;
  }
}

/** One staging buffer collecting copies of several regions, read back after submission. */
export class Readback {
  private readonly offsets: number[] = [];
  private total = 0;
  private staging: GPUBuffer | null = null;

  constructor(private readonly device: GPUDevice) {}

  /** Reserves `bytes` and returns a region id. Call before encode(). */
  add(bytes: number): number {
    this.offsets.push(this.total);
    this.total += Math.ceil(bytes / 4) * 4;
    return this.offsets.length - 1;
  }

  /** Encodes the copy of `src` (its first `bytes`) into region `id`. */
  copy(encoder: GPUCommandEncoder, id: number, src: GPUBuffer, bytes: number): void {
    if (!this.staging) {
      this.staging = this.device.createBuffer({
        label: 'readback',
        size: Math.max(16, this.total),
        usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST,
      });
    }
    if (bytes > 0) encoder.copyBufferToBuffer(src, 0, this.staging, this.offsets[id], Math.ceil(bytes / 4) * 4);
  }

  /** Maps the staging buffer after submission and returns a copy of every region's bytes. */
  async read(): Promise<ArrayBuffer[]> {
    if (!this.staging) return this.offsets.map(() => new ArrayBuffer(0));
    await this.staging.mapAsync(MapMode.READ);
    const all = this.staging.getMappedRange().slice(0);
    this.staging.unmap();
    this.staging.destroy();
    this.staging = null;
    return this.offsets.map((o, i) => all.slice(o, i + 1 < this.offsets.length ? this.offsets[i + 1] : this.total));
  }
}
