// Reassembly heading errors summarised: per part the absolute heading error against the kept
// true pose (computed by partHeadingError from parts_truth.json), and per player group the share
// of parts within a threshold (15 degrees in the seed). Inputs: per-part errors (null: part
// missing or unmatched, counted as not within). Output: {parts, within, share, meanDeg}.
import { meanOrNull } from './bootstrap';

export const HEADING_THRESHOLD_DEG = 15;

export interface HeadingSummary {
  parts: number;
  within: number;
  share: number | null;
  /** Mean over the matched parts only; null when none matched. */
  meanDeg: number | null;
}

export function headingSummary(errors: readonly (number | null)[], threshold = HEADING_THRESHOLD_DEG): HeadingSummary {
  const matched = errors.filter((e): e is number => e !== null);
  const within = matched.filter((e) => e <= threshold).length;
  return {
    parts: errors.length,
    within,
    share: errors.length ? within / errors.length : null,
    meanDeg: meanOrNull(matched),
  };
}
