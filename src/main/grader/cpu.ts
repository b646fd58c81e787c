// CPU grading backend: the tile rasterizer (renderView of cpu-views.ts), PSNR and IoU, the fast
// SSIM (SsimTarget, equal to the reference to ~1e-12) and LPIPS on wasm SIMD worker threads
// (LpipsPool, equal to the reference lpips.ts up to float32 summation order, ~1e-7 relative). It
// is the fallback where no adapter exists and the faster path on SwiftShader. Given the lab's
// worker pool, renders and the other metrics run there (jobs of cpu-views.ts), off the event
// loop; without one (CLI, tests) they run on this thread. Input: splats, cameras, views. Output:
// renders and per-view metrics.
// Invariant: photo masks, SSIM targets and photo LPIPS features are computed once per RefView
// object (per worker for the pool's copies), so repeated grades only pay for the renders and the
// render side of each metric; the numbers are the same on either thread. Photo LPIPS taps stay in
// the wasm module's layout (LpipsPhoto) and, given a photoCache, come from the per-machine cache
// (photo-cache.ts: bit for bit what the pool computes), so a new process pays only for its renders;
// given a weightsCache, the packed LPIPS weights come from one too (lpips/packed-cache.ts).
import { randomBytes } from 'node:crypto';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import type { LpipsWeights } from '../../shared/metrics/lpips-weights';
import { cachedPackedWeights, type PackedLpips } from '../lpips/packed-cache';
import { LpipsPool, type LpipsPhoto } from '../lpips/pool';
import { LpipsPhotoCache } from './photo-cache';
import type { RefView } from '../tasks/load';
import { JobCancelled, type Resident, type WorkerPool } from '../workers/pool';
import { forgetViews, renderImage, renderView, scoreView, type GradeView } from './cpu-views';
import type { GradeBackend, GradeOptions, ViewScores } from './types';

export { cappedPsnr, renderImage } from './cpu-views';

/** LPIPS weights as loaded (lpips/weights.ts), or already packed from the per-machine cache (Grader.create). */
export type CpuLpips = LpipsWeights | PackedLpips;

export interface CpuBackendOptions {
  /** LPIPS worker threads (default: LpipsPool's, the available cores capped at 8). */
  lpipsWorkers?: number;
  /** Niceness of the LPIPS worker threads (LpipsPoolOptions.nice); default unchanged. */
  lpipsNice?: number;
  /** The lab's worker pool: renders and metrics run there (default: on this thread). */
  pool?: WorkerPool;
  /** Folder of the per-machine cache of photo LPIPS taps (photo-cache.ts); default: none. */
  photoCache?: string;
  /** Folder of the per-machine cache of packed LPIPS weights (lpips/packed-cache.ts); default: none. */
  weightsCache?: string;
  /** false for a grader of one grade: LPIPS keeps nothing per view for the next (LpipsPoolOptions.incremental). */
  lpipsIncremental?: boolean;
}

/** The pool's queue for grades: every grade of the process shares it (GradeQueue orders them). */
const GRADER_CLIENT = 'grader';
/** The pool's queue for deferred hidden grades, run as background jobs. */
const HIDDEN_CLIENT = 'grader.hidden';

export class CpuBackend implements GradeBackend {
  readonly kind = 'cpu' as const;
  private readonly lpipsCache = new WeakMap<RefView, Promise<LpipsPhoto>>();
  private readonly photoCache: LpipsPhotoCache | null;
  private readonly viewKeys = new WeakMap<RefView, string>();
  private nextView = 1;
  /** Keys unique to this backend: several graders may share the lab's pool. */
  private readonly keyPrefix = `grade-view:${randomBytes(4).toString('hex')}`;
  private lpips: LpipsPool | null = null;

  constructor(
    private readonly weights: CpuLpips | null,
    private readonly opts: CpuBackendOptions = {},
  ) {
    this.photoCache = opts.photoCache ? new LpipsPhotoCache(opts.photoCache) : null;
    // Start the LPIPS workers now, so they load while the task and the scene do (cold paths).
    if (weights) this.lpipsPool(weights);
  }

  async render(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]> {
    const pool = this.opts.pool;
    if (!pool) return cameras.map((c) => renderView(splats, c));
    return pool.run('grade.render', { splats, cameras }, { client: GRADER_CLIENT });
  }

  /** The LPIPS workers, started with the backend (graders without LPIPS never start threads). */
  private lpipsPool(weights: CpuLpips): LpipsPool {
    const cache = this.opts.weightsCache;
    this.lpips ??= LpipsPool.create(weights, {
      ...(this.opts.lpipsWorkers === undefined ? {} : { workers: this.opts.lpipsWorkers }),
      ...(this.opts.lpipsNice === undefined ? {} : { nice: this.opts.lpipsNice }),
      ...(this.opts.lpipsIncremental === undefined ? {} : { incremental: this.opts.lpipsIncremental }),
      // Weights already packed (the cache's, read by Grader.create) need neither.
      ...(cache && !('packed' in weights) ? { packed: () => cachedPackedWeights(weights, cache) } : {}),
    });
    return this.lpips;
  }

  private photoLpips(view: RefView, weights: CpuLpips): Promise<LpipsPhoto> {
    let features = this.lpipsCache.get(view);
    if (!features) {
      const pool = this.lpipsPool(weights);
      const computed = this.photoCache ? this.photoCache.photo(pool, view.photo) : pool.photo(view.photo);
      // A failed computation is not cached: the next grade tries again.
      computed.catch(() => {
        if (this.lpipsCache.get(view) === computed) this.lpipsCache.delete(view);
      });
      this.lpipsCache.set(view, computed);
      features = computed;
    }
    return features;
  }

  /** The key of a view's copy in the pool's workers, and the copy to send where it is missing. */
  private resident(views: RefView[]): { keys: string[]; resident: Resident[] } {
    const keys = views.map((v) => {
      let key = this.viewKeys.get(v);
      if (!key) {
        key = `${this.keyPrefix}:${this.nextView++}`;
        this.viewKeys.set(v, key);
      }
      return key;
    });
    const resident = views.map((v, i): Resident => ({ key: keys[i], value: { name: v.name, camera: v.camera, photo: v.photo, mask: v.mask } satisfies GradeView }));
    return { keys, resident };
  }

  async measure(renders: RenderOutput[], views: RefView[], withLpips: boolean): Promise<ViewScores[]> {
    const weights = withLpips ? this.weights : null;
    const lpips = weights ? renders.map((r, i) => this.lpipsOf(r, views[i], weights)) : null;
    const pool = this.opts.pool;
    let scores: ViewScores[];
    if (pool) {
      const { keys, resident } = this.resident(views);
      scores = await pool.run('grade.measure', { renders, keys }, { client: GRADER_CLIENT, resident });
    } else {
      scores = renders.map((r, i) => scoreView(r, views[i]));
    }
    return this.withLpips(scores, lpips);
  }

  /**
   * render + measure. On this thread each view's LPIPS goes to its workers as soon as it is
   * rendered, so they run while the next views rasterize; on the pool the worker renders and
   * scores every view, then the LPIPS workers take the renders. Same results as render then measure.
   */
  async renderAndMeasure(splats: Splats, views: RefView[], withLpips: boolean): Promise<{ renders: RenderOutput[]; scores: ViewScores[] }> {
    const weights = withLpips ? this.weights : null;
    // Every view's photo features start now (a first grade computes them while the views render),
    // after the net for this image size, which the workers compile and warm up meanwhile.
    if (weights && views.length > 0) {
      this.lpipsPool(weights).prepare(views[0].photo.width, views[0].photo.height).catch(() => undefined); // a failure shows in the distances
      for (const v of views) this.photoLpips(v, weights);
    }
    const pool = this.opts.pool;
    if (pool) {
      const { keys, resident } = this.resident(views);
      const done = await pool.run('grade.views', { splats, keys }, { client: GRADER_CLIENT, resident });
      const lpips = weights ? done.renders.map((r, i) => this.lpipsOf(r, views[i], weights)) : null;
      return { renders: done.renders, scores: await this.withLpips(done.scores, lpips) };
    }
    const renders: RenderOutput[] = [];
    const lpips: Promise<number>[] = [];
    for (const view of views) {
      const r = renderView(splats, view.camera);
      renders.push(r);
      if (!weights) continue;
      lpips.push(this.lpipsOf(r, view, weights));
      // Let the dispatch chain post its message before the next render blocks this thread.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const scores = renders.map((r, i) => scoreView(r, views[i]));
    return { renders, scores: await this.withLpips(scores, weights ? lpips : null) };
  }

  /**
   * A deferred grade's scores: one view at a time, its render and PSNR/SSIM/IoU as a background
   * job on the pool (on this thread without one), then its LPIPS, so a player's job waits for one
   * view at most and at most one view's work is in flight when `signal` aborts (the grade then
   * rejects with JobCancelled). Views already in `grade.done` are skipped; each finished view is
   * put there. Same numbers as renderAndMeasure.
   */
  async yieldingScores(splats: Splats, views: RefView[], withLpips: boolean, grade: GradeOptions): Promise<ViewScores[]> {
    const weights = withLpips ? this.weights : null;
    const done = grade.done ?? [];
    const pool = this.opts.pool;
    for (const [i, view] of views.entries()) {
      if (done[i]) continue;
      if (grade.signal?.aborted) throw new JobCancelled();
      let render: RenderOutput;
      let score: ViewScores;
      if (pool) {
        const { keys, resident } = this.resident([view]);
        const out = await pool.run('grade.views', { splats, keys }, { client: HIDDEN_CLIENT, resident, background: grade.background === true });
        [render, score] = [out.renders[0], out.scores[0]];
      } else {
        render = renderView(splats, view.camera);
        score = scoreView(render, view);
      }
      if (weights) {
        if (grade.signal?.aborted) throw new JobCancelled();
        score.lpips = await this.lpipsOf(render, view, weights);
      }
      done[i] = score;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return views.map((_, i) => done[i]);
  }

  private lpipsOf(r: RenderOutput, view: RefView, weights: CpuLpips): Promise<number> {
    const distance = this.photoLpips(view, weights).then((f) => this.lpipsPool(weights).distance(renderImage(r), f));
    distance.catch(() => undefined); // awaited in withLpips(); avoids an unhandled rejection meanwhile
    return distance;
  }

  /** The (already dispatched) LPIPS values into their scores. */
  private async withLpips(scores: ViewScores[], lpips: Promise<number>[] | null): Promise<ViewScores[]> {
    if (lpips) {
      const values = await Promise.all(lpips);
      scores.forEach((s, i) => (s.lpips = values[i]));
    }
    return scores;
  }

  release(views: readonly RefView[]): void {
    // The LPIPS features' worker copies go with them (LpipsPool's FinalizationRegistry).
    forgetViews(views);
    for (const v of views) {
      this.lpipsCache.delete(v);
      const key = this.viewKeys.get(v);
      if (key) this.opts.pool?.forget(key);
      this.viewKeys.delete(v);
    }
  }

  destroy(): void {
    this.lpips?.destroy();
    this.lpips = null;
  }
}
