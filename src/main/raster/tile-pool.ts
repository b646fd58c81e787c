// Parallel driver of the tile-binned CPU rasterizer (src/shared/raster/cpu/tiles.ts): projection
// over Gaussian chunks and compositing over tile chunks run in worker threads on shared memory;
// the radix depth order and the tile binning run on the calling thread between them.
// Input: Splats, a Camera, RasterOptions, optional AbortSignal and progress callback.
// Output: RenderOutput, the image of the dense reference (parity tested).
// Invariants: renders on one pool run one at a time (they share the cached frame); a scene's
// arrays are copied into SharedArrayBuffers once per Splats object (none when they already are);
// a cancelled render rejects with RenderCancelled and leaves the pool usable.
// Threads: the driver needs only `KernelThreads` (post one message to every thread, await every
// reply), so it can run on the lab's shared worker pool as well as on its own threads.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Floats, Splats } from '../../shared/scene/splats';
import type { Camera, RasterOptions, RenderControl, RenderOutput } from '../../shared/raster/types';
import { allocTileFrame, binTiles, packTileCamera, tileInput, type TileFrame, type TileInput } from '../../shared/raster/cpu/tiles';
import { tileWorkerSource } from './tile-worker-source';

/** What the driver needs from a set of threads running tileWorkerSource(). */
export interface KernelThreads {
  readonly size: number;
  /** Posts `msg` to every thread and resolves when all have replied ok (rejects on the first error). */
  runAll(msg: Record<string, unknown>): Promise<void>;
  destroy(): void;
}

/** Thrown by a render stopped through its AbortSignal. */
export class RenderCancelled extends Error {
  constructor() {
    super('render cancelled');
    this.name = 'RenderCancelled';
  }
}

interface Reply {
  job: number;
  ok: boolean;
  message?: string;
}

/** Own worker threads (unref'd while idle, so they never keep the process alive). */
export class TileWorkerThreads implements KernelThreads {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, { left: number; resolve: () => void; reject: (e: Error) => void }>();
  private nextJob = 1;

  constructor(count: number) {
    if (!Number.isInteger(count) || count < 1) throw new Error(`tile rasterizer: workers must be a positive integer, got ${count}`);
    const source = tileWorkerSource();
    this.workers = Array.from({ length: count }, () => {
      const w = new Worker(source, { eval: true });
      w.unref();
      w.on('message', (r: Reply) => this.settle(r));
      w.on('error', (e) => this.failAll(e));
      return w;
    });
  }

  get size(): number {
    return this.workers.length;
  }

  runAll(msg: Record<string, unknown>): Promise<void> {
    const job = this.nextJob++;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(job, { left: this.workers.length, resolve, reject });
      for (const w of this.workers) {
        w.ref();
        w.postMessage({ ...msg, job });
      }
    });
  }

  private settle(r: Reply): void {
    const p = this.pending.get(r.job);
    if (!p) return;
    if (!r.ok) {
      this.pending.delete(r.job);
      p.reject(new Error(`tile rasterizer worker: ${r.message ?? 'failed'}`));
    } else if (--p.left === 0) {
      this.pending.delete(r.job);
      p.resolve();
    }
    if (this.pending.size === 0) for (const w of this.workers) w.unref();
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  destroy(): void {
    for (const w of this.workers) void w.terminate();
  }
}

const PROJECT_CHUNK = 16384;
const COMPOSITE_CHUNK = 2;

function isShared(a: Floats | null): boolean {
  return a === null || a.buffer instanceof SharedArrayBuffer;
}

function shareArray<T extends Floats>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const Ctor = a.constructor as new (b: SharedArrayBuffer) => T;
  const out = new Ctor(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}

export class TileRasterPool {
  private readonly shared = new WeakMap<Floats, TileInput>();
  private frame: TileFrame | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly threads: KernelThreads) {}

  /** A pool on its own worker threads (default: the available cores, capped at 8). */
  static create(opts: { workers?: number } = {}): TileRasterPool {
    return new TileRasterPool(new TileWorkerThreads(opts.workers ?? Math.min(8, Math.max(1, availableParallelism()))));
  }

  /** A pool on threads someone else owns (they must run tileWorkerSource()). */
  static on(threads: KernelThreads): TileRasterPool {
    return new TileRasterPool(threads);
  }

  get workers(): number {
    return this.threads.size;
  }

  render(splats: Splats, camera: Camera, opts: RasterOptions & RenderControl = {}): Promise<RenderOutput> {
    const run = this.queue.then(() => this.renderNow(splats, camera, opts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  destroy(): void {
    this.threads.destroy();
    this.frame = null;
  }

  private input(splats: Splats, opts: RasterOptions): TileInput {
    const local = tileInput(splats, opts);
    const arrays = [local.means, local.scales, local.quats, local.colors, local.opacities, local.rest];
    if (arrays.every(isShared)) return local;
    // Keyed by the means array: a new Splats object over the same arrays reuses the copy.
    const cached = this.shared.get(splats.means);
    const sameKind = cached !== undefined && (cached.rest === null) === (local.rest === null);
    if (cached && sameKind && cached.count === local.count) {
      return { ...cached, degree: local.degree, antialiased: local.antialiased };
    }
    const out: TileInput = {
      ...local,
      means: shareArray(local.means),
      scales: shareArray(local.scales),
      quats: shareArray(local.quats),
      colors: shareArray(local.colors),
      opacities: shareArray(local.opacities),
      rest: local.rest ? shareArray(local.rest) : null,
    };
    this.shared.set(splats.means, out);
    return out;
  }

  private frameFor(input: TileInput, width: number, height: number): TileFrame {
    const f = this.frame;
    const flat = input.rest === null;
    if (f && f.count >= input.count && f.width === width && f.height === height && (flat ? f.color === input.colors : f.color !== input.colors)) {
      return f.count === input.count ? f : { ...f, count: input.count };
    }
    this.frame = allocTileFrame(input, width, height, true);
    return this.frame;
  }

  private async renderNow(splats: Splats, camera: Camera, opts: RasterOptions & RenderControl): Promise<RenderOutput> {
    const { signal, onProgress } = opts;
    if (signal?.aborted) throw new RenderCancelled();
    onProgress?.({ stage: 'upload', fraction: 0 });
    const input = this.input(splats, opts);
    const frame = this.frameFor(input, camera.width, camera.height);
    const cam = packTileCamera(camera);
    await this.stage('project', { type: 'project', input, cam, frame, total: input.count, chunk: PROJECT_CHUNK }, opts);
    onProgress?.({ stage: 'bin', fraction: 0 });
    const local = binTiles(frame);
    if (signal?.aborted) throw new RenderCancelled();
    const bins = { order: new Uint32Array(0), offsets: shareArray32(local.offsets), ids: shareArray32(local.ids) };
    const pixels = camera.width * camera.height;
    const rgb = new Float32Array(new SharedArrayBuffer(pixels * 12));
    const alpha = new Float32Array(new SharedArrayBuffer(pixels * 4));
    const tiles = frame.tilesX * frame.tilesY;
    await this.stage('composite', { type: 'composite', frame, bins, rgb, alpha, total: tiles, chunk: COMPOSITE_CHUNK }, opts);
    return { width: camera.width, height: camera.height, rgb: rgb.slice(), alpha: alpha.slice() };
  }

  /** One parallel stage over `total` items with progress polling and cancellation. */
  private async stage(stage: 'project' | 'composite', msg: Record<string, unknown>, ctl: RenderControl): Promise<void> {
    const control = new Int32Array(new SharedArrayBuffer(12)); // next item, cancel flag, items done
    const total = msg.total as number;
    const cancel = (): void => void Atomics.store(control, 1, 1);
    ctl.signal?.addEventListener('abort', cancel);
    const report = (): void => ctl.onProgress?.({ stage, fraction: total > 0 ? Math.min(1, Atomics.load(control, 2) / total) : 1 });
    const timer = ctl.onProgress ? setInterval(report, 100) : undefined;
    try {
      report();
      await this.threads.runAll({ ...msg, ctl: control });
      report();
    } finally {
      if (timer) clearInterval(timer);
      ctl.signal?.removeEventListener('abort', cancel);
    }
    if (Atomics.load(control, 1) !== 0 || ctl.signal?.aborted) throw new RenderCancelled();
  }
}

function shareArray32(a: Uint32Array): Uint32Array {
  const out = new Uint32Array(new SharedArrayBuffer(Math.max(4, a.byteLength)));
  out.set(a);
  return out;
}
