// The mirror test: reflect a finished build across a vertical plane and measure its overlap with
// the held-out silhouettes again. A build that follows the object's layout loses overlap; a blob
// that fits the mirror image as well as the object loses none. The plane (docs/TASKS.md "The
// mirror test and its ceiling") is, per task, the vertical plane through the object's centre
// (the centre of the reference fit's box in x, y) at the heading, in 15 degree steps, where the
// reference fit itself loses the most overlap; the fit's own drop there is the ceiling a build
// of that object can reach.
// Inputs: Gaussian records; per-view IoUs of the build and of its mirror. Outputs: mirrored
// records; {iou, mirroredIou, drop}. Invariants: mirroring twice gives the records back; a build
// symmetric about the plane has drop 0. Reflection M = I - 2 n n^T (n the plane's unit normal):
// positions reflected about the plane and each covariance R S^2 R^T -> M R S^2 R^T M, i.e. the
// rotation R -> M R D with D = diag(-1, 1, 1) in the Gaussian's own frame (D commutes with S, and
// M R D is proper). As quaternions, M = -rot(n, 180) and D = -rot(x, 180), so q -> (0, n) q (0, 1, 0, 0);
// for n = x that is (w, x, -y, -z).
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

/** A vertical plane: through (x, y), its normal at `angleDeg` from +X about +Z. */
export interface MirrorPlane {
  x: number;
  y: number;
  angleDeg: number;
}

/** The headings tried for the plane's normal: 0, 15, ..., 165 degrees (180 is the same plane). */
export const MIRROR_PLANE_ANGLES: readonly number[] = Array.from({ length: 12 }, (_, i) => 15 * i);

export function mirrorAcross(records: readonly GaussianRecord[], plane: MirrorPlane): GaussianRecord[] {
  const a = (plane.angleDeg * Math.PI) / 180;
  const n = [Math.cos(a), Math.sin(a), 0];
  return records.map((r) => {
    const d = (r.pos[0] - plane.x) * n[0] + (r.pos[1] - plane.y) * n[1];
    const [w, x, y, z] = r.quat;
    // (0, n) (w, x, y, z) with n_z = 0, then times (0, 1, 0, 0) on the right.
    const a0 = -(n[0] * x + n[1] * y);
    const a1 = n[0] * w + n[1] * z;
    const a2 = n[1] * w - n[0] * z;
    const a3 = n[0] * y - n[1] * x;
    return {
      ...r,
      pos: [r.pos[0] - 2 * d * n[0], r.pos[1] - 2 * d * n[1], r.pos[2]],
      quat: [-a1, a0, a3, -a2],
      scale: [...r.scale],
      color: [...r.color],
    };
  });
}

/** The centre of the records' box in x, y (the vertical axis every candidate plane contains). */
export function boxCentreXY(records: readonly GaussianRecord[]): { x: number; y: number } {
  if (!records.length) return { x: 0, y: 0 };
  const xs = records.map((r) => r.pos[0]);
  const ys = records.map((r) => r.pos[1]);
  return { x: 0.5 * (Math.min(...xs) + Math.max(...xs)), y: 0.5 * (Math.min(...ys) + Math.max(...ys)) };
}

/** Where the reference fit loses the most: the plane of largest drop (first on ties) and that result. */
export function ceilingPlane(centre: { x: number; y: number }, results: readonly MirrorResult[]): { plane: MirrorPlane; result: MirrorResult } {
  if (results.length !== MIRROR_PLANE_ANGLES.length) throw new Error(`mirror ceiling needs ${MIRROR_PLANE_ANGLES.length} planes, got ${results.length}`);
  let best = 0;
  for (let i = 1; i < results.length; i++) if (results[i].drop > results[best].drop) best = i;
  return { plane: { ...centre, angleDeg: MIRROR_PLANE_ANGLES[best] }, result: results[best] };
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
