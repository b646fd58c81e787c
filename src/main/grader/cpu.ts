// CPU grading backend: the reference rasterizer and the reference metrics, the truth the GPU
// path is compared with and the fallback where no adapter exists. Input: splats, cameras, views.
// Output: renders and per-view metrics. Invariant: photo masks and photo LPIPS features are
// computed once per RefView object (WeakMap), so repeated grades of a task only pay for renders.
import { rasterizeForward } from '../../shared/raster/cpu';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import type { RgbImage } from '../../shared/image/image';
import { maskFromCoverage, iou } from '../../shared/metrics/mask';
import { mse, psnrFromMse } from '../../shared/metrics/psnr';
import { ssim } from '../../shared/metrics/ssim';
import { lpipsFeatures, lpipsFromFeatures, type LpipsFeatures } from '../../shared/metrics/lpips';
import type { LpipsWeights } from '../../shared/metrics/lpips-weights';
import type { RefView } from '../tasks/load';
import { PSNR_CAP, type GradeBackend, type ViewScores } from './types';

interface PhotoCache {
  mask: Uint8Array; // [H, W] photo mask > 0.5
  lpips?: LpipsFeatures;
}

export function renderImage(r: RenderOutput): RgbImage {
  return { width: r.width, height: r.height, data: r.rgb };
}

export function cappedPsnr(m: number): number {
  return Math.min(PSNR_CAP, psnrFromMse(m));
}

export class CpuBackend implements GradeBackend {
  readonly kind = 'cpu' as const;
  private readonly cache = new WeakMap<RefView, PhotoCache>();

  constructor(private readonly weights: LpipsWeights | null) {}

  async render(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]> {
    return cameras.map((c) => rasterizeForward(splats, c));
  }

  private photo(view: RefView, withLpips: boolean): PhotoCache {
    let entry = this.cache.get(view);
    if (!entry) {
      entry = { mask: maskFromCoverage(view.mask, 0.5) };
      this.cache.set(view, entry);
    }
    if (withLpips && this.weights && !entry.lpips) entry.lpips = lpipsFeatures(view.photo, this.weights);
    return entry;
  }

  async measure(renders: RenderOutput[], views: RefView[], withLpips: boolean): Promise<ViewScores[]> {
    return renders.map((r, i) => {
      const view = views[i];
      const img = renderImage(r);
      const cached = this.photo(view, withLpips);
      const out: ViewScores = {
        name: view.name,
        psnr: cappedPsnr(mse(img, view.photo)),
        ssim: ssim(img, view.photo),
        iou: iou(maskFromCoverage(r.alpha, 0.5), cached.mask),
      };
      if (withLpips && this.weights && cached.lpips) {
        out.lpips = lpipsFromFeatures(lpipsFeatures(img, this.weights), cached.lpips, this.weights);
      }
      return out;
    });
  }

  destroy(): void {}
}
