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
    const entries = views.map((v) => this.photo(v));
    const weights = withLpips ? this.weights : null;
    // LPIPS runs on the workers while this thread computes the other metrics.
    const lpips = weights
      ? Promise.all(views.map((v, i) => this.photoLpips(v, entries[i], weights))).then((photos) =>
          this.lpipsPool(weights).distances(renders.map((r, i) => ({ render: renderImage(r), photoFeatures: photos[i] }))),
        )
      : null;
    lpips?.catch(() => undefined); // awaited below; avoids an unhandled rejection while SSIM runs
    const scores = renders.map((r, i): ViewScores => {
      const view = views[i];
      const img = renderImage(r);
      return {
        name: view.name,
        psnr: cappedPsnr(mse(img, view.photo)),
        ssim: entries[i].ssim.evaluate(img.data),
        iou: iou(maskFromCoverage(r.alpha, 0.5), entries[i].mask),
      };
    });
    if (lpips) {
      const values = await lpips;
      scores.forEach((s, i) => (s.lpips = values[i]));
    }
    return scores;
  }

  destroy(): void {
    this.pool?.destroy();
    this.pool = null;
  }
}
