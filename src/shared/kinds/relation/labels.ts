// The labelling rule of the spatial-relation datasets (SpaRRTa's, restated with explicit roles).
// Inputs: ground-plane positions of the observer, the reference object and the target object
// (and, for the facing labelling, the observer's own facing direction). Output: one of the four
// classes or 'ambiguous'.
// Invariant: forward = reference - observer, rel = target - reference (both in the XY ground
// plane, Z up); angle = atan2(cross(forward, rel), dot(forward, rel)) in degrees, positive to the
// observer's left; front when |angle| < 45 - m, back when |angle| > 135 + m, left (angle > 0) or
// right (angle < 0) when 45 + m < |angle| < 135 - m, ambiguous otherwise (at a boundary too).

export const RELATION_CLASSES = ['front', 'back', 'left', 'right'] as const;
export type RelationClass = (typeof RELATION_CLASSES)[number];
export type RelationLabel = RelationClass | 'ambiguous';

/** Whose viewpoint a sample is labelled from: the camera (egocentric) or a person (allocentric). */
export const RELATION_TASKS = ['ego', 'allo'] as const;
export type RelationTask = (typeof RELATION_TASKS)[number];

/** Ambiguity margins in degrees around the diagonals, as in SpaRRTa's released code. */
export const MARGIN_DEG: Readonly<Record<RelationTask, number>> = Object.freeze({ ego: 15, allo: 10 });

export type Vec2 = readonly [number, number];

/**
 * Signed angle in degrees (-180, 180] from `forward` to `rel`, positive counter-clockwise seen
 * from above (+Z), that is towards the observer's left.
 */
export function signedAngleDeg(forward: Vec2, rel: Vec2): number {
  const cross = forward[0] * rel[1] - forward[1] * rel[0];
  const dot = forward[0] * rel[0] + forward[1] * rel[1];
  return (Math.atan2(cross, dot) * 180) / Math.PI;
}

/** The class of a signed angle under margin m (degrees); 'ambiguous' within m of a diagonal. */
export function classifyAngle(angleDeg: number, marginDeg: number): RelationLabel {
  if (!Number.isFinite(angleDeg) || !(marginDeg >= 0 && marginDeg < 45)) {
    throw new Error(`classifyAngle: need a finite angle and a margin in [0, 45) (got ${angleDeg}, ${marginDeg})`);
  }
  const a = Math.abs(angleDeg);
  if (a < 45 - marginDeg) return 'front';
  if (a > 135 + marginDeg) return 'back';
  if (a > 45 + marginDeg && a < 135 - marginDeg) return angleDeg > 0 ? 'left' : 'right';
  return 'ambiguous';
}

/** Ground-plane difference b - a of two points given as [x, y, (z)]. */
export function groundDelta(a: readonly number[], b: readonly number[]): Vec2 {
  return [b[0] - a[0], b[1] - a[1]];
}

export interface RelationGeometry {
  observer: readonly number[]; // [x, y, z?]
  reference: readonly number[];
  target: readonly number[];
}

/** The angle and label of the reference labelling: forward runs from the observer to the reference. */
export function relationOf(g: RelationGeometry, marginDeg: number): { angle: number; label: RelationLabel } {
  const forward = groundDelta(g.observer, g.reference);
  const rel = groundDelta(g.reference, g.target);
  if (Math.hypot(...forward) === 0 || Math.hypot(...rel) === 0) {
    throw new Error('relationOf: observer, reference and target must be at distinct ground positions');
  }
  const angle = signedAngleDeg(forward, rel);
  return { angle, label: classifyAngle(angle, marginDeg) };
}

/** Unit ground-plane direction of a yaw in degrees (0 = +X, 90 = +Y). */
export function yawDirection(yawDeg: number): Vec2 {
  const r = (yawDeg * Math.PI) / 180;
  return [Math.cos(r), Math.sin(r)];
}

/**
 * The facing labelling: forward is the person's own facing direction (its yaw) instead of the
 * direction towards the reference; rel is still target - reference.
 */
export function facingRelationOf(
  g: Omit<RelationGeometry, 'observer'>, observerYawDeg: number, marginDeg: number,
): { angle: number; label: RelationLabel } {
  const rel = groundDelta(g.reference, g.target);
  if (Math.hypot(...rel) === 0) throw new Error('facingRelationOf: reference and target must be at distinct ground positions');
  const angle = signedAngleDeg(yawDirection(observerYawDeg), rel);
  return { angle, label: classifyAngle(angle, marginDeg) };
}

/**
 * A signed angle (degrees, relative to forward) drawn uniformly from the unambiguous sector of
 * a class: u in [0, 1) picks the point in the sector; for front and back the sector straddles 0
 * and 180.
 */
export function angleInClass(cls: RelationClass, marginDeg: number, u: number): number {
  // Sectors are kept a hair inside their open bounds, so a drawn angle never lands on one.
  const eps = 1e-6;
  const half = 45 - marginDeg - eps; // front: (-half, half); back: |a| > 135 + m
  const side = 90 - 2 * marginDeg - 2 * eps; // width of the left or right sector
  switch (cls) {
    case 'front': return -half + 2 * half * u;
    case 'back': {
      const a = 135 + marginDeg + eps + (45 - marginDeg - eps) * 2 * u; // 135 + m .. 225 - m
      return a > 180 ? a - 360 : a;
    }
    case 'left': return 45 + marginDeg + eps + side * u;
    case 'right': return -(45 + marginDeg + eps + side * u);
  }
}
