// The mirror test: reflect a finished build across the vertical plane x = 0 and measure its
// overlap with the held-out silhouettes again. A build that follows the object's layout loses
// overlap; a blob that fits the mirror image as well as the object loses none.
// Inputs: Gaussian records; per-view IoUs of the build and of its mirror. Outputs: mirrored
// records; {iou, mirroredIou, drop}. Invariants: mirroring twice gives the records back; a build
// symmetric about x = 0 has drop 0. Reflection M = diag(-1, 1, 1): pos.x negated, and the
// rotation R -> M R M, which for a quaternion (w, x, y, z) is (w, x, -y, -z).
import type { GaussianRecord } from '../scene/gaussian';
import { mean } from './bootstrap';

export function mirrorRecord(r: GaussianRecord): GaussianRecord {
  const [w, x, y, z] = r.quat;
  const out: GaussianRecord = { ...r, pos: [-r.pos[0], r.pos[1], r.pos[2]], quat: [w, x, -y, -z], scale: [...r.scale], color: [...r.color] };
  return out;
}

export function mirrorRecords(records: readonly GaussianRecord[]): GaussianRecord[] {
  return records.map(mirrorRecord);
}

export interface MirrorResult {
  /** Mean held-out silhouette IoU of the build. */
  iou: number;
  /** The same for the build mirrored across x = 0. */
  mirroredIou: number;
  /** iou - mirroredIou: how much of its overlap the build owes to the object's actual layout. */
  drop: number;
}

export function mirrorResult(ious: readonly number[], mirroredIous: readonly number[]): MirrorResult {
  if (!ious.length || ious.length !== mirroredIous.length) throw new Error(`mirror test needs matching views (${ious.length} vs ${mirroredIous.length})`);
  const iou = mean(ious);
  const mirroredIou = mean(mirroredIous);
  return { iou, mirroredIou, drop: iou - mirroredIou };
}
