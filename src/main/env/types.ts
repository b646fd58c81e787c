// What the episode needs from the grader and the image builders (docs/DESIGN.md section 5), as narrow
// interfaces so SplatEnv can be driven by the real Grader or by a fake in tests.
// Invariant: nothing returned by `grade` ever reaches a ToolOut; it goes to the log only.
import type { RenderOutput, Camera } from '../../shared/raster/types';
import type { Splats } from '../../shared/scene/splats';
import type { LoadedTask, RefView } from '../tasks/load';
import type { GradeOptions } from '../grader/types';
import type { PublicView } from '../../shared/api/episode';

export interface EnvViewMetrics {
  name: string;
  psnr: number;
  ssim: number;
  iou: number;
  lpips?: number | null;
  render: RenderOutput;
}

export interface EnvGradeResult {
  score: number;
  psnr: number;
  ssim: number;
  lpips: number | null;
  iou: number;
  reward: number;
  trainingReward: number;
  lpipsMissing: boolean;
}

/** The subset of the contract's Grader the episode calls. */
export interface EnvGrader {
  renderViews(splats: Splats, cameras: Camera[]): Promise<RenderOutput[]>;
  compareViews(splats: Splats, views: RefView[]): Promise<EnvViewMetrics[]>;
  /** `signal` and `background`: a deferred grade that yields to player calls (grade-queue.ts). */
  grade(task: LoadedTask, splats: Splats, opts?: GradeOptions): Promise<EnvGradeResult>;
}


/** One row of the render_views sheet: the photo, the render and their metrics. */
export interface RenderRow {
  view: RefView;
  metrics: EnvViewMetrics;
}

/** PNG builders for the three image tools (src/main/env/images.ts). */
export interface EnvImages {
  /** May answer later, like the sheets below (the lab draws it on its pool once per task). */
  referenceSheet(task: LoadedTask, views?: number[]): Uint8Array | Promise<Uint8Array>;
  /** May answer later: the lab draws these on its worker pool (src/main/env/images-pool.ts). */
  renderViewsSheet(rows: RenderRow[]): Uint8Array | Promise<Uint8Array>;
  renderAngleImage(render: RenderOutput, label: string, camera: Camera): Uint8Array | Promise<Uint8Array>;
  /** The reference photos as the player sees them, once per task; absent: drawn here (src/main/env/public.ts). */
  publicViews?(task: LoadedTask): PublicView[] | Promise<PublicView[]>;
}
