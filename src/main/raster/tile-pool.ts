// Parallel driver of the tile-binned CPU rasterizer (src/shared/raster/cpu/tiles.ts) on the lab's
// worker pool (src/main/workers/pool.ts): projection over Gaussian chunks and compositing over tile
// chunks run as split jobs (one part per core) on shared memory, the radix depth order and the tile
// binning as a one-part job between them, so the calling thread only waits.
// Input: Splats, a Camera, RasterOptions, optional AbortSignal and progress callback.
// Output: RenderOutput, bit for bit the image of rasterizeTiles on the calling thread (the same
// kernels on the same items), which equals the dense reference (parity tested).
// Invariants: renders of one TileRasterPool run one at a time (they share the cached frame); a
// scene's arrays are copied into SharedArrayBuffers once per Splats object (none when they already
// are); a cancelled render rejects with RenderCancelled once no thread works on it any more (so
// the next render may reuse the frame) and leaves the pool usable; a part that fails or whose
// thread dies fails only that render (its other parts are stopped). The threads
// belong to the WorkerPool: TileRasterPool.on(poolThreads(pool, client)) borrows the lab's, and
// TileRasterPool.create() owns a pool of its own that destroy() closes (tools, benches, tests).
import type { Floats, Splats } from '../../shared/scene/splats';
import type { Camera, RasterOptions, RenderControl, RenderOutput } from '../../shared/raster/types';
import { allocTileFrame, packTileCamera, tileInput, type TileFrame, type TileInput } from '../../shared/raster/cpu/tiles';
import { WorkerPool } from '../workers/pool';
import { tileBinJob, type TileStageMessage, type TimedBins } from './tile-jobs';

/** What the driver needs from a set of threads running the jobs of ./tile-jobs.ts. */
export interface KernelThreads {
  /** Parts of a stage run at once at most. */
  readonly size: number;
  /**
   * Runs a stage message (TileStageMessage) on up to `size` threads; settles when no thread runs
   * it any more. `stop` sets the stage's cancel flag (the threads give up the rest of the stage).
   */
  runAll(msg: Record<string, unknown>, signal?: AbortSignal, stop?: () => void): Promise<void>;
  /** Bins a projected frame off the calling thread (absent: binned on the calling thread). */
  bin?(frame: TileFrame, signal?: AbortSignal): Promise<TimedBins>;
  destroy(): void;
}

/** Thrown by a render stopped through its AbortSignal. */
export class RenderCancelled extends Error {
  constructor() {
    super('render cancelled');
    this.name = 'RenderCancelled';
  }
}

/**
 * The lab pool's threads for the tile stages, on behalf of `client` (its unit of fairness).
 * `owned`: destroy() closes the pool too (a pool made for this rasterizer alone).
 */
export function poolThreads(pool: WorkerPool, client: string, owned = false): KernelThreads {
  const parts = pool.splitSize;
  return {
    size: parts,
    runAll: async (msg, signal, stop) => void (await pool.runSplit('raster.tiles', msg as unknown as TileStageMessage, { client, parts, ...(signal ? { signal } : {}), ...(stop ? { stop } : {}) })),
    bin: async (frame, signal) => (await pool.runSplit('raster.bin', { frame }, { client, parts: 1, ...(signal ? { signal } : {}) }))[0],
    destroy: () => {
      if (owned) void pool.close();
    },
  };
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

  /**
   * A rasterizer with a worker pool of its own, `workers` threads for its stages (default every
   * core); destroy() closes that pool. In the lab use on(poolThreads(ctx.pool, client)) instead.
   */
  static create(opts: { workers?: number } = {}): TileRasterPool {
    // Threads that load the rasterizer's jobs alone: a third of a full pool thread's memory.
    const pool = new WorkerPool(opts.workers === undefined ? { size: 1, entry: 'raster' } : { size: 1, splitSize: Math.max(1, opts.workers), entry: 'raster' });
    return new TileRasterPool(poolThreads(pool, 'tile-raster', true));
  }

  /** A rasterizer on threads someone else owns (the lab pool through poolThreads()). */
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
    if (f && f.count >= input.count && f.width === width && f.height === height) {
      return f.count === input.count ? f : { ...f, count: input.count };
    }
    this.frame = allocTileFrame(input, width, height, true);
    return this.frame;
  }

  private async renderNow(splats: Splats, camera: Camera, opts: RasterOptions & RenderControl): Promise<RenderOutput> {
    const { signal, onProgress } = opts;
    if (signal?.aborted) throw new RenderCancelled();
    onProgress?.({ stage: 'upload', fraction: 0 });
    const t0 = performance.now();
    const input = this.input(splats, opts);
    const frame = this.frameFor(input, camera.width, camera.height);
    const cam = packTileCamera(camera);
    await this.stage('project', { type: 'project', input, cam, frame, total: input.count, chunk: PROJECT_CHUNK }, opts);
    const t1 = performance.now();
    onProgress?.({ stage: 'bin', fraction: 0 });
    const bins = await this.bin(frame, signal);
    const t2 = performance.now();
    if (signal?.aborted) throw new RenderCancelled();
    const pixels = camera.width * camera.height;
    const rgb = new Float32Array(new SharedArrayBuffer(pixels * 12));
    const alpha = new Float32Array(new SharedArrayBuffer(pixels * 4));
    const tiles = frame.tilesX * frame.tilesY;
    await this.stage('composite', { type: 'composite', frame, bins, rgb, alpha, total: tiles, chunk: COMPOSITE_CHUNK }, opts);
    const out = { width: camera.width, height: camera.height, rgb: rgb.slice(), alpha: alpha.slice() };
    // The bin job's own clock splits its wall time into sort and binning; the rest is the hand-off.
    const handOff = Math.max(0, t2 - t1 - bins.sortMs - bins.binMs);
    opts.onTimings?.({ project: t1 - t0, sort: bins.sortMs, bin: bins.binMs + handOff, composite: performance.now() - t2, threads: this.threads.size, visible: bins.visible, intersections: bins.ids.length });
    return out;
  }

  private async bin(frame: TileFrame, signal: AbortSignal | undefined): Promise<TimedBins> {
    if (!this.threads.bin) return tileBinJob({ frame });
    try {
      return await this.threads.bin(frame, signal);
    } catch (error) {
      if (signal?.aborted) throw new RenderCancelled();
      throw error;
    }
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
      await this.threads.runAll({ ...msg, ctl: control }, ctl.signal, cancel);
      report();
    } catch (error) {
      // A failed part (or a dead thread) leaves its chunk undone: stop the other parts too.
      cancel();
      if (ctl.signal?.aborted) throw new RenderCancelled();
      throw error;
    } finally {
      if (timer) clearInterval(timer);
      ctl.signal?.removeEventListener('abort', cancel);
    }
    if (Atomics.load(control, 1) !== 0 || ctl.signal?.aborted) throw new RenderCancelled();
  }
}
