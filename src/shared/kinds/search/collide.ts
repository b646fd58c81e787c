// Collision of the camera (a sphere of radius r) swept along a straight segment, against exact
// primitives (procedural rooms) or any other solid that offers a distance function.
// Inputs: room parts, the segment's ends, the radius. Output: whether the swept sphere touches a
// part anywhere along the segment (not only at its end).
// Invariant: every part is convex (sphere, box, cylinder, cone), so the distance from a point
// moving along a segment to one part is a convex function of the segment parameter and its
// minimum is found by golden-section search; box, cylinder, cone and round spheres use exact
// Euclidean distances, a flattened sphere a lower bound (so it may only err towards a collision).
import { eulerMatrix, partAabb, localHalfExtents, type Mat3 } from '../../authoring/geometry';
import type { Part, Vec3 } from '../../authoring/primitives';

export interface Collider {
  /** True when the sphere of `radius` moved from a to b touches any solid. */
  sweepHits(a: Readonly<Vec3>, b: Readonly<Vec3>, radius: number): boolean;
}

interface ConvexPart {
  kind: Part['kind'];
  toLocal: Mat3; // R^T
  pos: Vec3;
  half: Vec3;
  lo: Vec3; // world AABB
  hi: Vec3;
}

/** Euclidean distance (0 inside) from a local-frame point to the part's solid. */
export function localDistance(kind: Part['kind'], half: Readonly<Vec3>, x: number, y: number, z: number): number {
  if (kind === 'box') {
    const dx = Math.max(Math.abs(x) - half[0], 0), dy = Math.max(Math.abs(y) - half[1], 0), dz = Math.max(Math.abs(z) - half[2], 0);
    return Math.hypot(dx, dy, dz);
  }
  if (kind === 'sphere') {
    const q = Math.hypot(x / half[0], y / half[1], z / half[2]);
    return Math.max(0, (q - 1) * Math.min(half[0], half[1], half[2]));
  }
  const rho = Math.hypot(x, y);
  if (kind === 'cylinder') {
    const dr = Math.max(rho - half[0], 0), dz = Math.max(Math.abs(z) - half[2], 0);
    return Math.hypot(dr, dz);
  }
  return coneDistance(half[0], half[2], rho, z);
}

/** Distance in the (rho, z) half-plane to the triangle (0,-h) (r,-h) (0,h): the solid cone's profile. */
function coneDistance(r: number, h: number, rho: number, z: number): number {
  // Inside: above the base and left of the slant line through (r, -h) and (0, h).
  const slant = (rho - r) * (2 * h) + (z + h) * r; // > 0 outside the slant edge
  if (z >= -h && slant <= 0) return 0;
  return Math.min(segmentDistance2d(rho, z, 0, -h, r, -h), segmentDistance2d(rho, z, r, -h, 0, h));
}

function segmentDistance2d(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax, ey = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey)));
  return Math.hypot(px - ax - t * ex, py - ay - t * ey);
}

function prepare(part: Part): ConvexPart {
  const r = eulerMatrix(part.rot);
  const box = partAabb(part);
  return {
    kind: part.kind,
    toLocal: [r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8]],
    pos: [part.pos[0], part.pos[1], part.pos[2]],
    half: localHalfExtents(part),
    lo: box.min,
    hi: box.max,
  };
}

/** Distance from a world point to a prepared part. */
function partDistance(p: ConvexPart, x: number, y: number, z: number): number {
  const m = p.toLocal;
  const dx = x - p.pos[0], dy = y - p.pos[1], dz = z - p.pos[2];
  return localDistance(p.kind, p.half, m[0] * dx + m[1] * dy + m[2] * dz, m[3] * dx + m[4] * dy + m[5] * dz, m[6] * dx + m[7] * dy + m[8] * dz);
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;
/** Golden-section steps: the bracket shrinks to 0.618^48 ~ 1e-10 of the segment. */
const SECTION_STEPS = 48;

/** Minimum over t in [0, 1] of a convex f(t). */
export function convexMin(f: (t: number) => number): number {
  let lo = 0, hi = 1;
  let x1 = hi - GOLDEN * (hi - lo), x2 = lo + GOLDEN * (hi - lo);
  let f1 = f(x1), f2 = f(x2);
  for (let i = 0; i < SECTION_STEPS; i++) {
    if (f1 <= f2) {
      hi = x2; x2 = x1; f2 = f1;
      x1 = hi - GOLDEN * (hi - lo); f1 = f(x1);
    } else {
      lo = x1; x1 = x2; f1 = f2;
      x2 = lo + GOLDEN * (hi - lo); f2 = f(x2);
    }
  }
  return Math.min(f1, f2, f(0), f(1));
}

/** Exact collider over the primitives of a procedural room. */
export class PrimitiveCollider implements Collider {
  private readonly parts: ConvexPart[];

  constructor(parts: readonly Part[]) {
    this.parts = parts.map(prepare);
  }

  /** Distance from a point to the nearest part (for tests and the start-pose sampler). */
  distance(p: Readonly<Vec3>): number {
    let best = Infinity;
    for (const c of this.parts) best = Math.min(best, partDistance(c, p[0], p[1], p[2]));
    return best;
  }

  sweepHits(a: Readonly<Vec3>, b: Readonly<Vec3>, radius: number): boolean {
    const lo = [0, 1, 2].map((k) => Math.min(a[k], b[k]) - radius);
    const hi = [0, 1, 2].map((k) => Math.max(a[k], b[k]) + radius);
    for (const c of this.parts) {
      if (c.lo[0] > hi[0] || c.hi[0] < lo[0] || c.lo[1] > hi[1] || c.hi[1] < lo[1] || c.lo[2] > hi[2] || c.hi[2] < lo[2]) continue;
      const d = convexMin((t) => partDistance(c, a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])));
      if (d <= radius) return true;
    }
    return false;
  }
}
