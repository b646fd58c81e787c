// CPU grading backend: the reference rasterizer, PSNR and IoU, the fast SSIM (SsimTarget, equal
// to the reference to ~1e-12) and LPIPS on wasm SIMD worker threads (LpipsPool, equal to the
// reference lpips.ts up to float32 summation order, ~1e-7 relative). It is the fallback where no
// adapter exists and the faster path on SwiftShader. Input: splats, cameras, views. Output:
// renders and per-view metrics. Invariant: photo masks, SSIM targets and photo LPIPS features
// are computed once per RefView object (WeakMap), so repeated grades only pay for the renders
// and the render side of each metric.
import { rasterizeForward } from '../../shared/raster/cpu';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import type { RgbImage } from '../../shared/image/image';
import { maskFromCoverage, iou } from '../../shared/metrics/mask';
import { mse, psnrFromMse } from '../../shared/metrics/psnr';
import { SsimTarget } from '../../shared/metrics/ssim-target';
import type { LpipsFeatures } from '../../shared/metrics/lpips';
import type { LpipsWeights } from '../../shared/metrics/lpips-weights';
import { LpipsPool } from '../lpips/pool';
import type { RefView } from '../tasks/load';
import { PSNR_CAP, type GradeBackend, type ViewScores } from './types';

interface PhotoCache {
  mask: Uint8Array; // [H, W] photo mask > 0.5
  ssim: SsimTarget;
  lpips?: Promise<LpipsFeatures>;
}

export function renderImage(r: RenderOutput): RgbImage {
  return { width: r.width, height: r.height, data: r.rgb };
}

export function cappedPsnr(m: number): number {
  return Math.min(PSNR_CAP, psnrFromMse(m));
}

export interface CpuBackendOptions {
  /** LPIPS worker threads (default: LpipsPool's, the available cores capped at 8). */
  lpipsWorkers?: number;
}

export class CpuBackend implements GradeBackend {
  readonly kind = 'cpu' as const;
  private readonly cache = new WeakMap<RefView, PhotoCache>();
  private pool: LpipsPool | null = null;

  constructor(
    private readonly weights: LpipsWeights | null,
    private readonly opts: CpuBackendOptions = {},
  ) {}

  async render(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]> {
    return cameras.map((c) => rasterizeForward(splats, c));
  }

  /** The LPIPS workers, started on first use (graders without LPIPS never start threads). */
  private lpipsPool(weights: LpipsWeights): LpipsPool {
    this.pool ??= LpipsPool.create(weights, this.opts.lpipsWorkers === undefined ? {} : { workers: this.opts.lpipsWorkers });
    return this.pool;
  }

  private photo(view: RefView): PhotoCache {
    let entry = this.cache.get(view);
    if (!entry) {
      entry = { mask: maskFromCoverage(view.mask, 0.5), ssim: new SsimTarget(view.photo) };
      this.cache.set(view, entry);
    }
    return entry;
  }

  private photoLpips(view: RefView, entry: PhotoCache, weights: LpipsWeights): Promise<LpipsFeatures> {
    if (!entry.lpips) {
      const features = this.lpipsPool(weights).features(view.photo);
      // A failed computation is not cached: the next grade tries again.
      features.catch(() => {
        if (entry.lpips === features) entry.lpips = undefined;
      });
      entry.lpips = features;
    }
    return entry.lpips;
  }

  async measure(renders: RenderOutput[], views: RefView[], withLpips: boolean): Promise<ViewScores[]> {
    const weights = withLpips ? this.weights : null;
    const lpips = weights ? renders.map((r, i) => this.lpipsOf(r, views[i], weights)) : null;
    return this.finish(renders, views, lpips);
  }

  /**
   * render + measure pipelined: each view's LPIPS goes to the workers as soon as it is rendered,
   * so the workers run while this thread rasterizes the next views and computes the other
   * metrics. Same results as render then measure.
   */
  async renderAndMeasure(splats: Splats, views: RefView[], withLpips: boolean): Promise<{ renders: RenderOutput[]; scores: ViewScores[] }> {
    const weights = withLpips ? this.weights : null;
    if (weights) this.lpipsPool(weights); // start the workers before the first render
    const renders: RenderOutput[] = [];
    const lpips: Promise<number>[] = [];
    for (const view of views) {
      const r = rasterizeForward(splats, view.camera);
      renders.push(r);
      if (!weights) continue;
      lpips.push(this.lpipsOf(r, view, weights));
      // Let the dispatch chain post its message before the next render blocks this thread.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { renders, scores: await this.finish(renders, views, weights ? lpips : null) };
  }

  private lpipsOf(r: RenderOutput, view: RefView, weights: LpipsWeights): Promise<number> {
    const distance = this.photoLpips(view, this.photo(view), weights).then((f) => this.lpipsPool(weights).distance(renderImage(r), f));
    distance.catch(() => undefined); // awaited in finish(); avoids an unhandled rejection meanwhile
    return distance;
  }

  /** PSNR, SSIM and IoU on this thread, then the (already dispatched) LPIPS values. */
  private async finish(renders: RenderOutput[], views: RefView[], lpips: Promise<number>[] | null): Promise<ViewScores[]> {
    const scores = renders.map((r, i): ViewScores => {
      const view = views[i];
      const img = renderImage(r);
      const entry = this.photo(view);
      return {
        name: view.name,
        psnr: cappedPsnr(mse(img, view.photo)),
        ssim: entry.ssim.evaluate(img.data),
        iou: iou(maskFromCoverage(r.alpha, 0.5), entry.mask),
      };
    });
    if (lpips) {
      const values = await Promise.all(lpips);
      scores.forEach((s, i) => (s.lpips = values[i]));
    }
    return scores;
  }

  release(views: readonly RefView[]): void {
    // The LPIPS features' worker copies go with them (LpipsPool's FinalizationRegistry).
    for (const v of views) this.cache.delete(v);
  }

  destroy(): void {
    this.pool?.destroy();
    this.pool = null;
  }
}
