// The hidden grader (docs/DESIGN.md section 4): renders a scene from a task's held-out cameras,
// measures PSNR, SSIM, LPIPS and silhouette IoU against the photos, and places the means between
// the task's empty and fit anchors. Also serves the player-visible reference comparisons of
// render_views. Input: Splats + LoadedTask (or views). Output: GradeResult / ViewMetrics.
// Invariant: deterministic (fixed view order, no randomness); the GPU path (WGSL rasterizer +
// GPU metrics) is used when a device is given and the CPU path is not preferred, else the CPU
// path (tile rasterizer, fast SSIM, wasm SIMD LPIPS on worker threads; on the lab's worker
// pool when one is given). The lab's servers run the GPU path in a child process of its own
// (gpuProcess, gpu-process.ts), in this process only where that cannot start.
import { splatScore, type MeanMetrics } from '../../shared/task/score';
import type { Anchors } from '../../shared/task/schema';
import { emptySplats } from '../../shared/scene/splats';
import type { Camera, RenderOutput, Splats } from '../../shared/raster/types';
import type { LpipsWeights } from '../../shared/metrics/lpips-weights';
import type { ShaderLibrary } from '../../shared/gpu/compose';
import type { GpuRasterizer } from '../../shared/raster/gpu';
import type { GpuContext } from '../gpu/device';
import { readPackedCache, type PackedLpips } from '../lpips/packed-cache';
import { lpipsWeightFiles, readLpipsWeights } from '../lpips/weights';
import type { LoadedTask, RefView } from '../tasks/load';
import type { WorkerPool } from '../workers/pool';
import { CpuBackend } from './cpu';
import { createGpuBackend, GpuBackend } from './gpu';
import { GpuProcessBackend } from './gpu-process';
import { loadShaders } from '../gpu/shaders';
import { oneLine } from '../workers/protocol';
import type { GradeBackend, GradeOptions, GradeResult, ViewMetrics, ViewScores } from './types';

export interface GraderOptions {
  device?: GPUDevice | null;
  /** LPIPS weights folder; null turns LPIPS off; undefined uses the default lookup. */
  lpipsDir?: string | null;
  /** WGSL sources for the GPU path; default: shaders/ at the repo root. */
  shaders?: ShaderLibrary;
  /**
   * Grade on the CPU even when a device is given. On SwiftShader (a CPU emulating a GPU) the CPU
   * path is faster at every stage; see graderDevice().
   */
  preferCpu?: boolean;
  /** LPIPS worker threads of the CPU path (default: the available cores, capped at 8). */
  lpipsWorkers?: number;
  /** Niceness of the LPIPS worker threads (the lab's servers: SERVING_NICE, src/main/workers/nice.ts); default unchanged. */
  lpipsNice?: number;
  /**
   * The CPU path's per-machine cache of photo LPIPS taps (photo-cache.ts, photoCacheDir()):
   * a new process reads them instead of computing them. Default: none (nothing written).
   */
  photoCache?: string;
  /**
   * The CPU path's per-machine cache of packed LPIPS weights (lpips/packed-cache.ts,
   * packedCacheDir()). Default: none (packed in every process).
   */
  weightsCache?: string;
  /**
   * false for a grader that grades once (`splatlab grade`): the CPU path's LPIPS keeps no state
   * per view for a next grade of it (LpipsPoolOptions.incremental). Default true.
   */
  lpipsIncremental?: boolean;
  /** The lab's worker pool: the CPU path renders and measures there, off the event loop. */
  pool?: WorkerPool;
  /**
   * The GPU path's rasterizer, shared with its owner (the lab context's, whose resident scene the
   * debugger and search views use too); not destroyed with the grader. Default: one of its own.
   */
  rasterizer?: () => GpuRasterizer | null;
  /**
   * The GPU path in a child process with its own device (gpu-process.ts), so grading never holds
   * this process's event loop (the lab's servers set it). Where the child cannot start, the GPU
   * path runs in this process and `placement` says why. Default false (one-shot CLI commands).
   */
  gpuProcess?: boolean;
}

/**
 * Device options for Grader.create from acquireGpu's result: the GPU path on a hardware
 * adapter, the CPU path on SwiftShader or without an adapter.
 */
export function graderDevice(gpu: GpuContext): Pick<GraderOptions, 'device' | 'preferCpu'> {
  return { device: gpu.device, preferCpu: gpu.status.path !== 'hardware' };
}

/**
 * The one grader of a lab process, built on first use from the process's GPU context: the GPU
 * path on a hardware adapter, else the CPU path; a GPU grader that fails to build (pipelines,
 * limits) falls back to the CPU reference, which grades identically, only slower. Every caller of
 * the returned function shares one Grader (and one LPIPS pool, one photo cache).
 */
export function sharedGrader(gpu: GpuContext, opts: Omit<GraderOptions, 'device' | 'preferCpu'> = {}, onFallback?: (why: string) => void): () => Promise<Grader> {
  let grader: Promise<Grader> | undefined;
  return () => {
    grader ??= Grader.create({ ...opts, ...graderDevice(gpu) }).catch((e: unknown) => {
      onFallback?.(e instanceof Error ? e.message : String(e));
      return Grader.create({ ...opts, device: null });
    });
    grader.catch(() => (grader = undefined));
    return grader;
  };
}

export class Grader {
  private constructor(
    private readonly backend: GradeBackend,
    /** Why LPIPS is unavailable (one line), or null when the weights loaded. */
    readonly lpipsProblem: string | null,
    /** Where grading runs, one line (app.info and doctor show it). */
    readonly placement: string,
  ) {}

  static async create(opts: GraderOptions = {}): Promise<Grader> {
    const cpu = !opts.device || opts.preferCpu === true;
    let weights: LpipsWeights | null = null;
    let packed: PackedLpips | null = null;
    let problem: string | null = null;
    if (opts.lpipsDir === null) {
      problem = 'LPIPS disabled';
    } else {
      try {
        const files = lpipsWeightFiles(opts.lpipsDir === undefined ? {} : { dir: opts.lpipsDir });
        // The CPU path takes the weights packed from this machine's cache when it holds them,
        // under the manifest's hashes: the weight files are then neither read nor hashed.
        packed = cpu && opts.weightsCache ? readPackedCache(files, opts.weightsCache) : null;
        if (!packed) weights = readLpipsWeights(files);
      } catch (err) {
        problem = (err as Error).message;
      }
    }
    if (!opts.device || opts.preferCpu) {
      const backend = new CpuBackend(packed ?? weights, {
        ...(opts.lpipsWorkers === undefined ? {} : { lpipsWorkers: opts.lpipsWorkers }),
        ...(opts.lpipsNice === undefined ? {} : { lpipsNice: opts.lpipsNice }),
        ...(opts.pool ? { pool: opts.pool } : {}),
        ...(opts.photoCache ? { photoCache: opts.photoCache } : {}),
        ...(opts.weightsCache ? { weightsCache: opts.weightsCache } : {}),
        ...(opts.lpipsIncremental === undefined ? {} : { lpipsIncremental: opts.lpipsIncremental }),
      });
      return new Grader(backend, problem, `CPU reference ${opts.pool ? 'on the worker pool' : 'on the main thread'}`);
    }
    let why = 'not asked for (gpuProcess off)';
    if (opts.gpuProcess) {
      try {
        const lpips = weights ? (typeof opts.lpipsDir === 'string' ? { dir: opts.lpipsDir } : {}) : null;
        const backend = await GpuProcessBackend.start({ lpips, shaders: opts.shaders ?? loadShaders() });
        return new Grader(backend, problem, 'GPU in a child process with its own device');
      } catch (e) {
        why = oneLine(e);
      }
    }
    const backend = await createGpuBackend(opts.device, weights, opts.shaders, opts.rasterizer?.() ?? undefined);
    return new Grader(backend, problem, `GPU on the main thread (child process: ${why})`);
  }

  /** 'gpu' or 'cpu': which rasterizer and metrics this grader uses. */
  get kind(): 'gpu' | 'cpu' {
    return this.backend.kind;
  }

  get lpipsAvailable(): boolean {
    return this.lpipsProblem === null;
  }

  renderViews(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]> {
    return this.backend.render(splats, cameras);
  }

  /** Renders `views` and measures them; the CPU backend overlaps the two. */
  private async renderAndMeasure(splats: Splats, views: RefView[], withLpips: boolean): Promise<{ renders: RenderOutput[]; scores: ViewScores[] }> {
    if (this.backend instanceof CpuBackend || this.backend instanceof GpuProcessBackend) return this.backend.renderAndMeasure(splats, views, withLpips);
    const renders = await this.backend.render(splats, views.map((v) => v.camera));
    return { renders, scores: await this.backend.measure(renders, views, withLpips) };
  }

  /** Renders and compares against each view's photo (render_views); LPIPS only on request. */
  async compareViews(splats: Splats, views: RefView[], opts: { lpips?: boolean } = {}): Promise<ViewMetrics[]> {
    const { renders, scores } = await this.renderAndMeasure(splats, views, opts.lpips === true && this.lpipsAvailable);
    return scores.map((s, i) => ({ ...s, render: renders[i] }));
  }

  /** Per-view and mean metrics over `views` (all metrics, LPIPS when weights loaded). */
  async measureViews(splats: Splats, views: RefView[], opts: GradeOptions = {}): Promise<{ perView: ViewScores[]; mean: MeanMetrics }> {
    const yielding = opts.signal !== undefined || opts.background === true;
    const perView =
      yielding && this.backend instanceof CpuBackend
        ? await this.backend.yieldingScores(splats, views, this.lpipsAvailable, opts)
        : (await this.renderAndMeasure(splats, views, this.lpipsAvailable)).scores;
    return { perView, mean: meanMetrics(perView, this.lpipsAvailable) };
  }

  /**
   * The hidden grade of a scene on the task's held-out views; a deferred grade passes `opts`
   * (GradeOptions: it yields to player calls; the GPU path ignores them).
   */
  async grade(task: LoadedTask, splats: Splats, opts: GradeOptions = {}): Promise<GradeResult> {
    const { perView, mean } = await this.measureViews(splats, task.heldout, opts);
    const parts = splatScore(mean, task.anchors);
    return { ...parts, psnr: mean.psnr, ssim: mean.ssim, lpips: mean.lpips, iou: mean.iou, perView };
  }

  /** Anchor metrics of the empty scene and of the fit on these held-out views. */
  async computeAnchors(heldout: RefView[], fit: Splats): Promise<Anchors> {
    const empty = (await this.measureViews(emptySplats(0), heldout)).mean;
    const fitted = (await this.measureViews(fit, heldout)).mean;
    return { empty, fit: fitted, lpips_model: this.lpipsAvailable ? 'alex-v0.1' : null };
  }

  /** Frees what this grader holds for a task's views (the task was unloaded or changed). */
  release(task: Pick<LoadedTask, 'reference' | 'heldout'>): void {
    this.backend.release([...task.reference, ...task.heldout]);
  }

  /** Photos held on the GPU now (0 on the CPU path): a leak shows as growth here. */
  get gpuPhotoCount(): number {
    return this.backend instanceof GpuBackend || this.backend instanceof GpuProcessBackend ? this.backend.photoCount : 0;
  }

  destroy(): void {
    this.backend.destroy();
  }
}

/** Means in view order; LPIPS null unless every view has it. */
export function meanMetrics(perView: ViewScores[], withLpips: boolean): MeanMetrics {
  const n = perView.length;
  const mean = (f: (v: ViewScores) => number): number => perView.reduce((s, v) => s + f(v), 0) / n;
  const lpipsAll = withLpips && perView.every((v) => v.lpips !== undefined);
  return {
    psnr: mean((v) => v.psnr),
    ssim: mean((v) => v.ssim),
    iou: mean((v) => v.iou),
    lpips: lpipsAll ? mean((v) => v.lpips as number) : null,
  };
}
