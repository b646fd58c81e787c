// Pivot maths of the play view's gizmo (issue 30 item 5; docs/DESIGN.md section 7), pure. The
// episode's transform_group turns and scales about the set's centroid c:
// p' = c + R K (p - c) + t. A move about another pivot o is the same call with the translation
// t' = t + (I - R K)(o - c), so "world origin" stays one transform_group. "Individual origins"
// turns and scales each Gaussian about its own centre: positions move by t only, which only
// per-Gaussian field edits can say.
// Inputs: a TransformSpec, the set's records, the pivot. Outputs: a TransformSpec or new records.
// Invariant: specAboutPivot(spec, c, c) is spec (the centroid pivot is the tool's own).
import { transformRecords, transformRotation, centroid, type TransformSpec } from '../../shared/scene/transform';
import { quatToMat3 } from '../../shared/math/quaternion';
import { mat3MulVec, type Vec3 } from '../../shared/math/vec3';
import type { GaussianRecord } from '../../shared/scene/gaussian';

export type PivotChoice = 'centre' | 'individual' | 'origin';
export type GizmoSpace = 'local' | 'world';

/** The spec about the centroid `c` that moves every point as `spec` about the pivot `o` would. */
export function specAboutPivot(spec: TransformSpec, c: Vec3, o: Vec3): TransformSpec {
  const k: Vec3 = spec.scale === undefined ? [1, 1, 1] : typeof spec.scale === 'number' ? [spec.scale, spec.scale, spec.scale] : spec.scale;
  const rm = quatToMat3(transformRotation(spec.rotateDeg));
  const d: Vec3 = [o[0] - c[0], o[1] - c[1], o[2] - c[2]];
  const rkd = mat3MulVec(rm, [k[0] * d[0], k[1] * d[1], k[2] * d[2]]);
  const t = spec.translate ?? [0, 0, 0];
  const shift: Vec3 = [t[0] + d[0] - rkd[0], t[1] + d[1] - rkd[1], t[2] + d[2] - rkd[2]];
  if (shift.every((x) => Math.abs(x) < 1e-12)) {
    const { translate: _t, ...rest } = spec;
    return rest;
  }
  return { ...spec, translate: shift };
}

/** Each Gaussian turned and scaled about its own centre, then shifted by the spec's translation. */
export function aboutOwnOrigins(records: readonly GaussianRecord[], spec: TransformSpec): GaussianRecord[] {
  return records.map((r) => transformRecords([r], spec).records[0]);
}

/** Where the gizmo sits for a pivot choice: the set's centroid, or the world origin. */
export function pivotPoint(records: readonly GaussianRecord[], pivot: PivotChoice): Vec3 {
  return pivot === 'origin' ? [0, 0, 0] : centroid(records);
}
