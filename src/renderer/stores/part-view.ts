// The part view's numbers, pure (issue 42, item 3; docs/DESIGN.md section 7): a part's centroid,
// its size for framing, its heading, and the turn a heading dial asks for.
// Inputs: the part's records as they are now (staged edits included). Outputs: numbers in world
// units and degrees. Invariants: the heading is a property of the part's own Gaussians (the mean
// direction of their local X axes in the XY plane), so a turn of θ about Z changes it by exactly
// θ and it says nothing about where the part belongs (no true pose is read anywhere here).
import { quatToMat3 } from '../../shared/math/quaternion';
import type { Vec3 } from '../../shared/math/vec3';
import type { GaussianRecord } from './staging-ops';
import { SNAP_DEG } from './typed-fields';

export function partCentroid(recs: readonly GaussianRecord[]): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (const r of recs) for (let k = 0; k < 3; k++) c[k] += r.pos[k] / Math.max(1, recs.length);
  return c;
}

/**
 * Radius about the centroid that holds the part for framing: each Gaussian's centre plus its
 * half-alpha reach (1.18 σ, σ the geometric mean of its axes: a flat disc's long axis would
 * frame a fitted part far too loosely, as playing the robot showed).
 */
export function partRadius(recs: readonly GaussianRecord[]): number {
  const c = partCentroid(recs);
  const reach = Math.sqrt(2 * Math.LN2);
  return Math.max(0.02, ...recs.map((r) => Math.hypot(r.pos[0] - c[0], r.pos[1] - c[1], r.pos[2] - c[2]) + reach * Math.cbrt(r.scale[0] * r.scale[1] * r.scale[2])));
}

/** Degrees in (-180, 180]. */
export function wrapDeg(d: number): number {
  const w = ((((d + 180) % 360) + 360) % 360) - 180;
  return w === -180 ? 180 : w + 0;
}

/**
 * The part's heading in degrees (counter-clockwise from +X, seen from above): the mean of its
 * Gaussians' local X axes projected on XY, each weighted by its projected length (an axis
 * pointing straight up says nothing about heading). Null when no axis has a horizontal part.
 */
export function partHeading(recs: readonly GaussianRecord[]): number | null {
  let x = 0;
  let y = 0;
  for (const r of recs) {
    const m = quatToMat3(r.quat);
    // Column 0 of the row-major rotation: the local X axis in world coordinates.
    x += m[0];
    y += m[3];
  }
  if (Math.hypot(x, y) < 1e-9 * Math.max(1, recs.length)) return null;
  return wrapDeg((Math.atan2(y, x) * 180) / Math.PI);
}

/** The dial's angle for a pointer at (dx, dy) from its centre in screen pixels (+X right, +Y up on the dial). */
export function dialAngle(dx: number, dy: number): number {
  return wrapDeg((Math.atan2(-dy, dx) * 180) / Math.PI);
}

/** The turn from heading `from` to dial angle `to` (shortest way), snapped to 15° steps when `snap`. */
export function dialTurn(from: number, to: number, snap: boolean): number {
  const t = wrapDeg(to - from);
  return snap ? wrapDeg(Math.round(t / SNAP_DEG) * SNAP_DEG) : Math.round(t * 100) / 100 + 0;
}
