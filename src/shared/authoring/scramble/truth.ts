// parts_truth.json of a reassembly task and the per-part pose errors computed from it.
// Inputs: the truth written by scramble() and a final scene (e.g. a submitted episode state).
// Outputs: per label the heading error (degrees, about world Z) and the centroid error.
// Invariant: a part placed back exactly (rotated by -rotation_deg about its centroid, moved by
// -translation) has heading error 0 and centroid error 0; errors are symmetric in sign.
import { z } from 'zod';
import { quatToMat3, type Quat } from '../../math/quaternion';
import type { Vec3 } from '../../math/vec3';
import type { GaussianRecord } from '../../scene/gaussian';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const vec3 = z.tuple([finite, finite, finite]);
const vec4 = z.tuple([finite, finite, finite, finite]);

/**
 * One part's true pose. The scramble turned the part by `rotation_deg` about the vertical axis
 * through `true_centroid`, then moved it by `translation` (= scrambled_centroid - true_centroid).
 */
export const PartTruthSchema = z.object({
  label: z.string().min(1),
  count: z.number().int().positive(),
  ids: z.array(z.number().int().nonnegative()), // record ids in init_reassembly.npz (row index)
  true_centroid: vec3,
  scrambled_centroid: vec3,
  translation: vec3,
  rotation_deg: finite,
  true_positions: z.array(vec3), // [count, 3], same order as ids
  true_quats: z.array(vec4), // [count, 4] (w, x, y, z), same order as ids
});
export type PartTruth = z.infer<typeof PartTruthSchema>;

export const PartsTruthSchema = z.object({
  version: z.literal(1),
  seed: z.number().int(),
  k: z.number().int().positive(),
  kmeans_iterations: z.number().int().nonnegative(),
  kmeans_converged: z.boolean(),
  parts: z.array(PartTruthSchema).min(1),
});
export type PartsTruth = z.infer<typeof PartsTruthSchema>;

export interface PartPoseError {
  label: string;
  /** |heading| of the part relative to its true pose, degrees in [0, 180]; null when unmatched. */
  headingErrorDeg: number | null;
  /** Distance from the part's centroid to its true centroid (world units); null when absent. */
  centroidError: number | null;
  /** How the final Gaussians were paired with the truth (`id`, `order`) or why not. */
  matched: 'id' | 'order' | 'missing' | 'count-mismatch';
}

function centroid(points: readonly Readonly<Vec3>[]): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (const p of points) for (let a = 0; a < 3; a++) c[a] += p[a] / points.length;
  return c;
}

/**
 * Heading (degrees, about +Z, in (-180, 180]) of the rotation that best explains final vs true
 * orientations: the Z rotation closest (Frobenius) to the sum of R_final_i * R_true_i^T.
 */
export function relativeHeadingDeg(trueQuats: readonly Readonly<Quat>[], finalQuats: readonly Readonly<Quat>[]): number {
  let m00 = 0, m01 = 0, m10 = 0, m11 = 0;
  trueQuats.forEach((qt, i) => {
    const a = quatToMat3(finalQuats[i]);
    const b = quatToMat3(qt);
    // (A B^T)[r][c] = sum_k A[r][k] B[c][k]
    const mul = (r: number, c: number): number => a[3 * r] * b[3 * c] + a[3 * r + 1] * b[3 * c + 1] + a[3 * r + 2] * b[3 * c + 2];
    m00 += mul(0, 0);
    m01 += mul(0, 1);
    m10 += mul(1, 0);
    m11 += mul(1, 1);
  });
  return (Math.atan2(m10 - m01, m00 + m11) * 180) / Math.PI;
}

function pairUp(part: PartTruth, finals: GaussianRecord[]): { records: GaussianRecord[]; how: 'id' | 'order' } | null {
  const byId = new Map(finals.map((r) => [r.id, r]));
  if (part.ids.length === part.count && part.ids.every((id) => byId.has(id)) && finals.length === part.count) {
    return { records: part.ids.map((id) => byId.get(id) as GaussianRecord), how: 'id' };
  }
  if (finals.length === part.count) return { records: finals, how: 'order' };
  return null;
}

/**
 * Per part: heading error and centroid error of `finalRecords` (grouped by label) against the
 * truth. Gaussians pair by id when every true id is present in the group, else by order within
 * the group when the counts agree; a group with another count gets only its centroid error.
 */
export function partHeadingError(truth: PartsTruth, finalRecords: readonly GaussianRecord[]): PartPoseError[] {
  return truth.parts.map((part) => {
    const finals = finalRecords.filter((r) => r.group === part.label);
    if (finals.length === 0) return { label: part.label, headingErrorDeg: null, centroidError: null, matched: 'missing' };
    const c = centroid(finals.map((r) => r.pos));
    const t = part.true_centroid;
    const centroidError = Math.hypot(c[0] - t[0], c[1] - t[1], c[2] - t[2]);
    const pairs = pairUp(part, finals);
    if (!pairs) return { label: part.label, headingErrorDeg: null, centroidError, matched: 'count-mismatch' };
    const heading = relativeHeadingDeg(part.true_quats, pairs.records.map((r) => r.quat));
    return { label: part.label, headingErrorDeg: Math.abs(heading), centroidError, matched: pairs.how };
  });
}
