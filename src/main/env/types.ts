// What an episode needs from the lab's grader (docs/DESIGN.md section 5), as a narrow interface so
// an environment can be driven by the real Grader or by a fake in tests. SplatBench's image
// builders are its own (src/main/kinds/splatbench/images.ts).
// Invariant: nothing returned by `grade` ever reaches a ToolOut; it goes to the log only.
import type { RenderOutput, Camera } from '../../shared/raster/types';
import type { Splats } from '../../shared/scene/splats';
import type { LoadedTask, RefView } from '../tasks/load';
import type { GradeOptions } from '../grader/types';

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

