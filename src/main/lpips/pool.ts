// LPIPS on worker threads: each worker runs the wasm SIMD network (src/shared/metrics/wasm).
// Input: LpipsWeights once; renders and cached photo features per call. Output: distances in
// pair order, or one image's features. A photo's distances always run on the same worker (the
// one with the fewest photos when it was first seen), in a slot of its own there, so a render
// that differs from that photo's previous render only inside a box recomputes only the conv
// blocks that box reaches (lpips-module.ts dirtyRects): the distance is bit-identical to a full
// pass. Photo features run on the least-busy worker.
// Invariants: weights are packed once and sent once per worker; a photo's taps are sent to a
// worker the first time it needs them and dropped there when the parent's LpipsFeatures object is
// garbage-collected; a slot's rects are computed from the render last sent to it, in send order
// (a failed call empties the slot, so the next computes everything); workers are unref'd whenever
// no job is in flight and terminated by destroy(), so they never keep the process alive.
// A photo can also be an LpipsPhoto (photo(): its taps in the module's channel-last layout, as the
// worker wrote them): it never goes through the [C, H, W] maps, so the grader neither transposes
// it twice nor recomputes it when a per-machine cache (photo-cache.ts) holds its bytes.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RgbImage } from '../../shared/image/image';
import type { LpipsFeatures } from '../../shared/metrics/lpips';
import type { LpipsWeights } from '../../shared/metrics/lpips-weights';
import { ALEXNET_LAYERS } from '../../shared/metrics/lpips-weights';
import { changedBox, dirtyRects, emitLpipsModule, packLpipsWeights, type LpipsModulePlan } from '../../shared/metrics/wasm/lpips-module';
import { assertTapsMatch, featuresFromRegion, photoRegion } from '../../shared/metrics/wasm/lpips-wasm';
import { packedCacheKey, type PackedLpips } from './packed-cache';
import { POOL_WORKER_SOURCE } from './pool-worker';

export interface LpipsPoolOptions {
  /** Worker threads; default os.availableParallelism() capped at 8 (one grade has 8 views). */
  workers?: number;
  /**
   * packLpipsWeights(weights), or a function giving it (called once the threads are started), from
   * the per-machine cache (packed-cache.ts): the pool then skips packing. Default: packed here.
   */
  packed?: Float32Array | (() => Float32Array);
  /** Niceness each worker lowers itself to (src/main/workers/nice.ts): the lab's grader sets SERVING_NICE. */
  nice?: number;
  /**
   * false: every distance runs whole on its worker's scratch slot and nothing is kept for the
   * photo's next render (a one-shot grade, `splatlab grade`: no copy of each render here, and
   * each worker's wasm memory touches one slot of about 5.7 MB instead of one per photo, fresh
   * memory being slow to touch; docs/PERFORMANCE.md). The same values. Default true.
   */
  incremental?: boolean;
}

export interface LpipsPair {
  render: RgbImage;
  photoFeatures: LpipsFeatures;
}

/**
 * A photo's normalised LPIPS taps for one image size in the module's channel-last layout (the
 * region features() transposes into LpipsFeatures): what distance() sends the worker as it is.
 */
export interface LpipsPhoto {
  readonly width: number;
  readonly height: number;
  readonly region: Float32Array;
}

function isPhoto(p: LpipsFeatures | LpipsPhoto): p is LpipsPhoto {
  return !Array.isArray(p);
}

interface Reply {
  type: 'done' | 'error';
  job: number;
  values?: number[];
  region?: Float32Array;
  message?: string;
}

interface Pending {
  resolve: (r: Reply) => void;
  reject: (e: Error) => void;
}

/** Structured clone copies a view's whole buffer; hand over only the view's bytes. */
function ownBuffer(data: Float32Array): Float32Array {
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : data.slice();
}

/** What the parent knows a worker's view slot holds: the photo it serves and the render last sent. */
interface SlotState {
  photo: number; // 0: none
  last: Float32Array | null;
  used: number; // for least-recently-used reuse
}

class PoolWorker {
  assigned = 0; // jobs handed to this worker and not yet settled (scheduling only)
  pinned = 0; // photos whose distances run here
  readonly photos = new Set<number>(); // photo ids this worker holds
  readonly slots = new Map<string, SlotState[]>(); // per image size: the view slots (all but the scratch one)
  readonly nets = new Map<string, Promise<void>>(); // image sizes compiled here
  private readonly pending = new Map<number, Pending>();
  private dead: Error | null = null;

  constructor(readonly worker: Worker) {
    worker.on('message', (r: Reply) => this.settle(r));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`LPIPS worker exited (code ${code})`)));
    // After the listeners: adding a 'message' listener refs the worker's port again, so a worker
    // that is only ever posted to (never asked) would keep the process alive.
    worker.unref();
  }

  private settle(r: Reply): void {
    const p = this.pending.get(r.job);
    if (!p) return;
    this.pending.delete(r.job);
    if (this.pending.size === 0) this.worker.unref();
    if (r.type === 'error') p.reject(new Error(r.message ?? 'LPIPS worker failed'));
    else p.resolve(r);
  }

  private fail(err: Error): void {
    this.dead ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  get isDead(): boolean {
    return this.dead !== null;
  }

  post(msg: object, transfer: ArrayBuffer[] = []): void {
    if (this.dead) throw this.dead;
    this.worker.postMessage(msg, transfer);
  }

  /** Posts a message that expects a reply; the worker is ref'd until every reply is in. */
  request(job: number, msg: object, transfer: ArrayBuffer[] = []): Promise<Reply> {
    if (this.dead) return Promise.reject(this.dead);
    return new Promise<Reply>((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(job, { resolve, reject });
      this.worker.postMessage({ ...msg, job }, transfer);
    });
  }
}

export class LpipsPool {
  private readonly modules = new Map<string, { plan: LpipsModulePlan; bytes: Uint8Array }>();
  private readonly photoIds = new WeakMap<LpipsFeatures | LpipsPhoto, number>();
  private readonly pins = new Map<number, PoolWorker>(); // photo id -> the worker of its distances
  private slotClock = 0;
  private readonly dropper = new FinalizationRegistry<number>((id) => this.drop(id));
  private nextPhoto = 1;
  private nextJob = 1;
  private destroyed = false;

  private constructor(
    private readonly workers: PoolWorker[],
    private readonly incremental: boolean,
    /** The weights' identity (packedCacheKey), or how to compute it on first use. */
    private weightsId: string | (() => string),
  ) {}

  /**
   * Starts the workers and sends them the packed weights: `weights` packed (or opts.packed), or
   * weights already packed (a per-machine cache's, packed-cache.ts: the raw weights never read).
   */
  static create(weights: LpipsWeights | PackedLpips, opts: LpipsPoolOptions = {}): LpipsPool {
    const count = opts.workers ?? Math.min(8, Math.max(1, availableParallelism()));
    if (!Number.isInteger(count) || count < 1) throw new Error(`LPIPS pool: workers must be a positive integer, got ${count}`);
    // The threads first: they start up while this one packs the weights (a cold start's critical path).
    const workers = Array.from({ length: count }, () => new PoolWorker(new Worker(POOL_WORKER_SOURCE, { eval: true, workerData: opts.nice === undefined ? {} : { nice: opts.nice } })));
    // In shared memory: every worker reads the one copy (a plain array is cloned per worker, about
    // 10 MB each, on the event loop: issue 29 item 2).
    const prepacked = 'packed' in weights ? weights : null;
    const given = prepacked ? prepacked.packed : typeof opts.packed === 'function' ? opts.packed() : opts.packed;
    let packed: Float32Array;
    if (given && given.buffer instanceof SharedArrayBuffer) {
      packed = given;
    } else {
      const plain = given ?? packLpipsWeights(weights as LpipsWeights);
      packed = new Float32Array(new SharedArrayBuffer(plain.byteLength));
      packed.set(plain);
    }
    for (const w of workers) w.post({ type: 'init', packed });
    return new LpipsPool(workers, opts.incremental !== false, prepacked ? prepacked.id : () => packedCacheKey(weights as LpipsWeights));
  }

  /**
   * What a photo's region depends on besides the photo: the module for this size (its kernels,
   * hence the float32 summation order) and the weights (packedCacheKey: the packing code and the
   * tensors' hashes). Equal fingerprints give bit-identical regions, so a cache keyed by it and
   * the photo's bytes never serves a stale region.
   */
  fingerprint(width: number, height: number): string {
    if (typeof this.weightsId === 'function') this.weightsId = this.weightsId();
    return createHash('sha256').update(this.module(width, height).bytes).update(this.weightsId).digest('hex');
  }

  /** The number of floats in a photo region of this size (a cached region must have exactly these). */
  regionFloats(width: number, height: number): number {
    return this.module(width, height).plan.photoFloats;
  }

  get size(): number {
    return this.workers.length;
  }

  /** View slots holding a photo's last render, over every worker (none without incremental slots). */
  get viewSlots(): number {
    return this.workers.reduce((n, w) => n + [...w.slots.values()].reduce((m, t) => m + t.filter((s) => s.photo !== 0).length, 0), 0);
  }

  private module(width: number, height: number): { key: string; plan: LpipsModulePlan; bytes: Uint8Array } {
    const key = `${width}x${height}`;
    let m = this.modules.get(key);
    if (!m) {
      m = emitLpipsModule(ALEXNET_LAYERS, height, width);
      this.modules.set(key, m);
    }
    return { key, ...m };
  }

  /** Compiles (once per worker and size) and waits until that worker has warmed the net up. */
  private net(w: PoolWorker, width: number, height: number): Promise<void> {
    const { key, plan, bytes } = this.module(width, height);
    let ready = w.nets.get(key);
    if (!ready) {
      ready = w.request(this.nextJob++, { type: 'net', key, plan, bytes, full: dirtyRects(plan, 'all') }).then(() => undefined);
      w.nets.set(key, ready);
    }
    return ready;
  }

  /** Compiles the net for this image size on every worker now (optional; first use does it). */
  async prepare(width: number, height: number): Promise<void> {
    this.check();
    await Promise.all(this.workers.map((w) => this.net(w, width, height)));
  }

  private photoId(features: LpipsFeatures | LpipsPhoto): number {
    let id = this.photoIds.get(features);
    if (id === undefined) {
      id = this.nextPhoto++;
      this.photoIds.set(features, id);
      this.dropper.register(features, id);
    }
    return id;
  }

  /** Runs from the FinalizationRegistry: must never throw (a dead worker holds nothing). */
  private drop(id: number): void {
    if (this.destroyed) return;
    const pinned = this.pins.get(id);
    if (pinned) pinned.pinned--;
    this.pins.delete(id);
    for (const w of this.workers) {
      if (w.photos.delete(id) && !w.isDead) w.post({ type: 'drop', id });
    }
  }

  private check(): void {
    if (this.destroyed) throw new Error('LPIPS pool: used after destroy()');
  }

  /** The worker of a photo's distances: pinned on first use to the one with the fewest photos. */
  private pinnedWorker(photo: number): PoolWorker {
    let w = this.pins.get(photo);
    if (!w || w.isDead) {
      w = this.workers.reduce((best, x) => (x.pinned < best.pinned ? x : best));
      w.pinned++;
      this.pins.set(photo, w);
    }
    return w;
  }

  /**
   * The slot of `photo` on `w` and the conv rects that bring it from its last render to `rgb`
   * (every block when the slot is new to the photo); records `rgb` as the slot's last render.
   */
  private slotFor(w: PoolWorker, key: string, plan: LpipsModulePlan, photo: number, rgb: Float32Array): { slot: number; rects: Int32Array; state: SlotState } {
    let table = w.slots.get(key);
    if (!table) {
      table = Array.from({ length: plan.slots - 1 }, () => ({ photo: 0, last: null, used: 0 }));
      w.slots.set(key, table);
    }
    let slot = table.findIndex((s) => s.photo === photo);
    let box: ReturnType<typeof changedBox> | 'all' = 'all';
    if (slot >= 0 && table[slot].last) {
      box = changedBox(table[slot].last as Float32Array, rgb, plan.width, plan.height);
    } else {
      slot = table.reduce((best, s, i) => (s.used < table[best].used ? i : best), 0);
      table[slot].photo = photo;
    }
    const state = table[slot];
    if (state.last) state.last.set(rgb);
    else state.last = rgb.slice();
    state.used = ++this.slotClock;
    return { slot, rects: dirtyRects(plan, box), state };
  }

  /** The worker with the fewest jobs assigned (lowest index on ties), reserved for one job. */
  private async onWorker<T>(job: (w: PoolWorker) => Promise<T>, pinned?: PoolWorker): Promise<T> {
    this.check();
    const w = pinned ?? this.workers.reduce((best, x) => (x.assigned < best.assigned ? x : best));
    w.assigned++;
    try {
      return await job(w);
    } finally {
      w.assigned--;
    }
  }

  /**
   * LPIPS of each render against its photo's features, in pair order. Pairs are dispatched one
   * by one to the least-busy worker, so batches and single calls made while others run balance.
   */
  async distances(pairs: LpipsPair[]): Promise<number[]> {
    this.check();
    return Promise.all(pairs.map((p) => this.distance(p.render, p.photoFeatures)));
  }

  /**
   * LPIPS of one render against a photo's features (as lpipsFeatures or features() return), on
   * the photo's worker, incrementally from that photo's previous render (same value as a full pass).
   */
  async distance(render: RgbImage, photoFeatures: LpipsFeatures | LpipsPhoto): Promise<number> {
    this.check();
    const id = this.photoId(photoFeatures);
    return this.onWorker(async (w) => {
      const { key, plan } = this.module(render.width, render.height);
      // The worker may hold this photo for another size.
      if (isPhoto(photoFeatures)) {
        if (photoFeatures.width !== render.width || photoFeatures.height !== render.height || photoFeatures.region.length !== plan.photoFloats) {
          throw new Error(`LPIPS pool: photo is ${photoFeatures.width}x${photoFeatures.height} (${photoFeatures.region.length} floats), render ${render.width}x${render.height} (${plan.photoFloats})`);
        }
      } else {
        assertTapsMatch(photoFeatures, plan);
      }
      await this.net(w, render.width, render.height);
      if (!w.photos.has(id)) {
        // An LpipsPhoto's region stays with its owner; one in shared memory (photo(), the
        // per-machine cache) reaches the worker without a copy here (issue 38 item 1).
        const region = isPhoto(photoFeatures) ? photoFeatures.region : photoRegion(photoFeatures, plan);
        w.post({ type: 'photo', id, key, region }, isPhoto(photoFeatures) ? [] : [region.buffer as ArrayBuffer]);
        w.photos.add(id);
      }
      // No await between the rects and the post: jobs of a slot reach the worker in rect order.
      const rgb = ownBuffer(render.data);
      const { slot, rects, state } = this.incremental ? this.slotFor(w, key, plan, id, rgb) : { slot: plan.slots - 1, rects: dirtyRects(plan, 'all'), state: null };
      const reply = await w.request(this.nextJob++, { type: 'distance', key, items: [{ rgb, photo: id, slot, rects }] }).catch((e: unknown) => {
        if (state) {
          state.photo = 0; // the slot's memory is unknown now: its next use computes everything
          state.last = null;
        }
        throw e;
      });
      if (!reply.values || reply.values.length !== 1) throw new Error('LPIPS worker: distance reply without a value');
      return reply.values[0];
    }, this.pinnedWorker(id));
  }

  /** Normalised taps of one image ([C, H, W] maps, as lpipsFeatures), on the least-busy worker. */
  async features(img: RgbImage): Promise<LpipsFeatures> {
    const { plan } = this.module(img.width, img.height);
    return featuresFromRegion((await this.photo(img)).region, plan);
  }

  /** One image's normalised taps as an LpipsPhoto (no transpose, its region in shared memory), on the least-busy worker. */
  photo(img: RgbImage): Promise<LpipsPhoto> {
    return this.onWorker(async (w) => {
      const { key } = this.module(img.width, img.height);
      await this.net(w, img.width, img.height);
      const reply = await w.request(this.nextJob++, { type: 'features', key, rgb: ownBuffer(img.data) });
      if (!reply.region) throw new Error('LPIPS worker: features reply without data');
      return { width: img.width, height: img.height, region: reply.region };
    });
  }

  /** Each worker thread's niceness (Linux: per thread), as it set it at start. */
  async niceness(): Promise<number[]> {
    return Promise.all(this.workers.map(async (w) => (await w.request(this.nextJob++, { type: 'priority' })).values?.[0] ?? Number.NaN));
  }

  /** Terminates the workers; pending calls reject. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const w of this.workers) void w.worker.terminate();
  }
}
