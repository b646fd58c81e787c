// GPU grading backend: the WGSL rasterizer (forwardBatch: all views in one submission) and
// GpuMetrics (PSNR, SSIM, IoU and LPIPS per view in one batch). Input: a GPUDevice, the shader
// library, LPIPS weights or null. Output: the same numbers as the CPU backend within float
// tolerance. Invariant: each RefView's photo is uploaded (with its mask and LPIPS taps) once and
// kept until destroy(), so repeated grades of a task only render and compare; the scene stays on
// the device between grades (the rasterizer's resident scene), each edit uploaded as a delta.
import type { ShaderLibrary } from '../../shared/gpu/compose';
import { maskFromCoverage } from '../../shared/metrics/mask';
import { GpuMetrics, type GpuPhoto } from '../../shared/metrics/gpu/gpu-metrics';
import type { LpipsWeights } from '../../shared/metrics/lpips-weights';
import { GpuRasterizer } from '../../shared/raster/gpu';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import type { RefView } from '../tasks/load';
import { PSNR_CAP, type GradeBackend, type ViewScores } from './types';
import { loadShaders } from '../gpu/shaders';

export class GpuBackend implements GradeBackend {
  readonly kind = 'gpu' as const;
  private readonly photos = new WeakMap<RefView, GpuPhoto>();
  private readonly uploaded: GpuPhoto[] = [];

  constructor(
    private readonly rasterizer: GpuRasterizer,
    private readonly metrics: GpuMetrics,
    /** False for a rasterizer shared with its owner (the lab context's): destroy() leaves it. */
    private readonly ownsRasterizer = true,
  ) {}

  render(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]> {
    // An empty scene is all background by definition; the GPU path is not asked to bind
    // zero-length buffers for it.
    if (splats.count === 0) return Promise.resolve(cameras.map(blankRender));
    return keepAlive(this.rasterizer.forwardBatch(splats, cameras));
  }

  /** Uploads the photos not yet on the device, one batch per image size. */
  private async ensurePhotos(views: RefView[]): Promise<void> {
    const missing = [...new Set(views.filter((v) => !this.photos.has(v)))];
    const bySize = new Map<string, RefView[]>();
    for (const v of missing) {
      const key = `${v.photo.width}x${v.photo.height}`;
      bySize.set(key, [...(bySize.get(key) ?? []), v]);
    }
    for (const group of bySize.values()) {
      const prepared = await this.metrics.preparePhotos(group.map((v) => ({ image: v.photo, mask: maskFromCoverage(v.mask, 0.5) })));
      prepared.forEach((p, i) => {
        this.photos.set(group[i], p);
        this.uploaded.push(p);
      });
    }
  }

  measure(renders: RenderOutput[], views: RefView[], withLpips: boolean): Promise<ViewScores[]> {
    return keepAlive(this.measureNow(renders, views, withLpips));
  }

  private async measureNow(renders: RenderOutput[], views: RefView[], withLpips: boolean): Promise<ViewScores[]> {
    await this.ensurePhotos(views);
    const out: ViewScores[] = new Array(views.length);
    const bySize = new Map<string, number[]>();
    views.forEach((v, i) => {
      const key = `${v.photo.width}x${v.photo.height}`;
      bySize.set(key, [...(bySize.get(key) ?? []), i]);
    });
    for (const indices of bySize.values()) {
      const results = await this.metrics.compute(
        indices.map((i) => ({
          render: { width: renders[i].width, height: renders[i].height, data: renders[i].rgb },
          coverage: renders[i].alpha,
          photo: this.photos.get(views[i]) as GpuPhoto,
        })),
      );
      results.forEach((m, k) => {
        const i = indices[k];
        const scores: ViewScores = { name: views[i].name, psnr: Math.min(PSNR_CAP, m.psnr), ssim: m.ssim, iou: m.iou ?? 0 };
        if (withLpips && m.lpips !== null) scores.lpips = m.lpips;
        out[i] = scores;
      });
    }
    return out;
  }

  release(views: readonly RefView[]): void {
    for (const v of views) {
      const p = this.photos.get(v);
      if (!p) continue;
      this.photos.delete(v);
      this.metrics.releasePhoto(p);
      this.uploaded.splice(this.uploaded.indexOf(p), 1);
    }
  }

  /** Photos on the device now (one per RefView graded and not released). */
  get photoCount(): number {
    return this.uploaded.length;
  }

  destroy(): void {
    for (const p of this.uploaded) this.metrics.releasePhoto(p);
    this.uploaded.length = 0;
    this.metrics.destroy();
    if (this.ownsRasterizer) this.rasterizer.destroy();
  }
}

/**
 * Holds the Node event loop open until `p` settles: Dawn's pending GPU callbacks do not, so a
 * CLI awaiting only GPU work would otherwise exit before the result arrives.
 */
function keepAlive<T>(p: Promise<T>): Promise<T> {
  const timer = setInterval(() => undefined, 1000);
  return p.finally(() => clearInterval(timer));
}

function blankRender(c: Camera): RenderOutput {
  const n = c.width * c.height;
  return { width: c.width, height: c.height, rgb: new Float32Array(n * 3).fill(1), alpha: new Float32Array(n) };
}

/** The GPU backend; `shared` is a rasterizer someone else owns (its resident scene is shared). */
export async function createGpuBackend(device: GPUDevice, weights: LpipsWeights | null, library: ShaderLibrary = loadShaders(), shared?: GpuRasterizer): Promise<GradeBackend> {
  return new GpuBackend(shared ?? GpuRasterizer.create(device, library), GpuMetrics.create(device, library, weights), shared === undefined);
}
