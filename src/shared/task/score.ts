// SplatScore arithmetic (docs/DESIGN.md section 4): each held-out metric is placed between the empty
// scene and the gradient-descent fit, then averaged. Pure functions so the grader, reports and
// tests share one definition. Invariant: an empty scene scores exactly 0 and the fit exactly 100
// whenever the metrics equal the anchors bit for bit.
import type { AnchorMetrics, Anchors } from './schema';

export interface MeanMetrics {
  psnr: number;
  ssim: number;
  lpips: number | null; // null when LPIPS weights are missing
  iou: number;
}

export interface Normalized {
  psnr: number;
  ssim: number;
  lpips: number | null;
}

export interface ScoreParts {
  score: number;
  normalized: Normalized;
  reward: number;
  trainingReward: number;
  lpipsMissing: boolean;
}

/**
 * n = 100 * (m - m_empty) / (m_fit - m_empty). The anchors carry each metric's direction: for
 * lower-is-better LPIPS both differences are negative when m improves on the empty scene, so one
 * formula serves every metric (negating m and both anchors would cancel exactly, so there is no
 * orientation flag). A degenerate anchor pair (fit equal to empty) gives 0, not a division by zero.
 */
export function normalizeMetric(m: number, empty: number, fit: number): number {
  const den = fit - empty;
  if (den === 0 || !Number.isFinite(den)) return 0;
  const num = m - empty;
  // Ratio first: (100 * x) / x is not always exactly 100 in floating point, x / x is 1.
  return num === 0 ? 0 : 100 * (num / den);
}

export const clip01 = (x: number): number => Math.min(1, Math.max(0, x));

/** Benchmark reward clip(score/100, 0, 1). */
export const benchmarkReward = (score: number): number => clip01(score / 100);

/** Training reward clip((score + 50)/150, 0, 1). */
export const trainingReward = (score: number): number => clip01((score + 50) / 150);

/**
 * Score from mean held-out metrics and the task anchors. LPIPS counts only when both the measured
 * value and both anchors exist; otherwise the score is the mean of n_PSNR and n_SSIM.
 */
export function splatScore(m: MeanMetrics, anchors: Anchors): ScoreParts {
  const e: AnchorMetrics = anchors.empty;
  const f: AnchorMetrics = anchors.fit;
  const psnr = normalizeMetric(m.psnr, e.psnr, f.psnr);
  const ssim = normalizeMetric(m.ssim, e.ssim, f.ssim);
  const haveLpips = m.lpips !== null && e.lpips !== null && f.lpips !== null;
  const lpips = haveLpips ? normalizeMetric(m.lpips as number, e.lpips as number, f.lpips as number) : null;
  const score = lpips === null ? (psnr + ssim) / 2 : (psnr + ssim + lpips) / 3;
  return {
    score,
    normalized: { psnr, ssim, lpips },
    reward: benchmarkReward(score),
    trainingReward: trainingReward(score),
    lpipsMissing: lpips === null,
  };
}
