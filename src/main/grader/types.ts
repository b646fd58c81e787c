// Result types of the hidden grader (docs/DESIGN.md section 5) and the backend seam that lets the same
// grading code run on the WGSL rasterizer + GPU metrics or on the CPU references.
// Invariant: a backend returns per-view numbers in the order of the views it was given.
import type { RenderOutput, Splats, Camera } from '../../shared/raster/types';
import type { Normalized } from '../../shared/task/score';
import type { RefView } from '../tasks/load';

export interface ViewScores {
  name: string;
  psnr: number; // dB, capped at PSNR_CAP
  ssim: number;
  iou: number; // render coverage > 0.5 vs photo mask > 0.5
  lpips?: number; // present when LPIPS was requested and weights are loaded
}

export interface ViewMetrics extends ViewScores {
  render: RenderOutput;
}

export interface GradeResult {
  score: number;
  psnr: number; // means over the held-out views
  ssim: number;
  lpips: number | null;
  iou: number;
  normalized: Normalized;
  reward: number; // clip(score / 100, 0, 1)
  trainingReward: number; // clip((score + 50) / 150, 0, 1)
  lpipsMissing: boolean;
  perView: ViewScores[];
}

/** One device's way of rendering and measuring; photo-side data is cached per view object. */
export interface GradeBackend {
  readonly kind: 'gpu' | 'cpu';
  render(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]>;
  /** Metrics of each render against its view's photo; LPIPS only when `withLpips`. */
  measure(renders: RenderOutput[], views: RefView[], withLpips: boolean): Promise<ViewScores[]>;
  /** Frees what is held for these views (their task was unloaded); a later use uploads again. */
  release(views: readonly RefView[]): void;
  destroy(): void;
}

/** Identical images would give PSNR = Infinity, which no mean or JSON file can hold. */
export const PSNR_CAP = 100;

/**
 * How a hidden grade runs (src/main/workers/grade-queue.ts): `signal` stops it between views
 * (it rejects with JobCancelled); `background` runs its pool jobs behind every other job; `done`
 * carries what a preempted run finished over to the next run.
 */
export interface GradeOptions {
  signal?: AbortSignal;
  background?: boolean;
  /**
   * Scores of the views already measured, by view index: a preempted grade run again with the
   * same array (same scene) measures only the views it lacks. Filled as views finish.
   */
  done?: ViewScores[];
}
