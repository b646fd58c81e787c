// SplatBench's Inspect scorer (src/main/kinds/scorer.ts): the SplatScore of the final scene, the
// log replayed strictly and graded by the lab's hidden grader (src/main/study/verify.ts).
// Input: a trajectory and its SplatBench task. Output: the score with PSNR, SSIM, IoU and LPIPS.
// Invariant: a log that does not replay throws (verifyModelLog names the step).
import { splatbenchKind } from '../../../../shared/kinds/splatbench/kind';
import { verifyModelLog } from '../../../study/verify';
import type { KindScorer } from '../../scorer';
import { asSplatTask } from '../kind';

export const splatScorer: KindScorer = {
  name: 'splatscore',
  description: "SplatScore (0-100) of the final scene: the log replayed strictly and graded by the lab's hidden grader",
  family: splatbenchKind.family,
  async score({ traj, task, grader }) {
    const v = await verifyModelLog(traj, asSplatTask(task, 'splatscore'), await grader());
    return {
      value: v.score,
      answer: null,
      explanation: `SplatScore ${v.score.toFixed(2)} after ${v.calls} calls (PSNR ${v.psnr.toFixed(2)} dB, SSIM ${v.ssim.toFixed(3)}, IoU ${v.iou.toFixed(3)}${v.lpips === null ? ', LPIPS missing' : `, LPIPS ${v.lpips.toFixed(3)}`})`,
      metadata: { reward: v.reward, psnr: v.psnr, ssim: v.ssim, iou: v.iou, lpips: v.lpips, file_score: v.fileScore, mismatch: v.mismatch },
    };
  },
};
