// Exact ray-primitive intersections in a part's own frame (CPU reference of shaders/raycast.wgsl).
// Inputs: a validated ProceduralObject, turned into PreparedPart records; rays in the part's local
// frame. Output: the ray parameter of the first surface hit and the local outward normal.
// Invariant: the arithmetic follows the WGSL line by line (same formulas, same order, same
// tie-breaks), so float64 here and float32 there differ only where a sample grazes an edge.
import { boundingRadius, eulerMatrix, localHalfExtents, type Mat3 } from './geometry';
import { colorRgb, type PartKind, type ProceduralObject, type Vec3 } from './primitives';

/** Kind codes shared with the shader. */
export const KIND_CODE: Record<PartKind, number> = { sphere: 0, box: 1, cylinder: 2, cone: 3 };

export interface PreparedPart {
  kind: number; // KIND_CODE
  toLocal: Mat3; // R^T, row-major: local = R^T (world - pos)
  toWorld: Mat3; // R, row-major: rotates local normals to world
  pos: Vec3;
  /** sphere: semi-axes; box: half extents; cylinder and cone: (radius, height / 2, 0). */
  size: Vec3;
  /** Squared radius (inflated) of a sphere about pos containing the part; rays farther off miss. */
  bound2: number;
  color: Vec3;
}

/** Directions and determinants smaller than this are treated as parallel (unit-length rays). */
export const PARALLEL_EPS = 1e-12;
/** Bounding-sphere inflation, so culling never drops a sample that could touch the part. */
const BOUND_SLACK = 1e-4;

export function prepareParts(obj: ProceduralObject): PreparedPart[] {
  return obj.parts.map((part) => {
    const r = eulerMatrix(part.rot);
    const e = localHalfExtents(part);
    const size: Vec3 = part.kind === 'cylinder' || part.kind === 'cone' ? [e[0], e[2], 0] : e;
    const bound = boundingRadius(part) * (1 + BOUND_SLACK) + BOUND_SLACK;
    return {
      kind: KIND_CODE[part.kind],
      toLocal: [r[0], r[3], r[6], r[1], r[4], r[7], r[2], r[5], r[8]],
      toWorld: r,
      pos: [part.pos[0], part.pos[1], part.pos[2]],
      size,
      bound2: bound * bound,
      color: colorRgb(part.color),
    };
  });
}

/** Local (not normalised) outward normal of the last hit found by intersectLocal. */
export const hitNormal = new Float64Array(3);

/**
 * First hit with parameter t > tMin of the ray o + t d (local frame, |d| = 1) with the part's
 * surface; returns Infinity on a miss and writes the local normal into hitNormal on a hit.
 * Only entering hits count: objects are always seen from outside.
 */
export function intersectLocal(kind: number, size: Vec3, o: Vec3, d: Vec3, tMin: number): number {
  if (kind === 0) return hitEllipsoid(size, o, d, tMin);
  if (kind === 1) return hitBox(size, o, d, tMin);
  if (kind === 2) return hitCylinder(size[0], size[1], o, d, tMin);
  return hitCone(size[0], size[1], o, d, tMin);
}

function hitEllipsoid(s: Vec3, o: Vec3, d: Vec3, tMin: number): number {
  // Scale to the unit sphere; the closest-point form of the discriminant avoids cancellation.
  const px = o[0] / s[0], py = o[1] / s[1], pz = o[2] / s[2];
  const qx = d[0] / s[0], qy = d[1] / s[1], qz = d[2] / s[2];
  const a = qx * qx + qy * qy + qz * qz;
  const b = px * qx + py * qy + pz * qz;
  const k = b / a;
  const wx = px - k * qx, wy = py - k * qy, wz = pz - k * qz;
  const h = 1 - (wx * wx + wy * wy + wz * wz);
  if (h < 0) return Infinity;
  const t = (-b - Math.sqrt(a * h)) / a;
  if (!(t > tMin)) return Infinity;
  hitNormal[0] = (o[0] + t * d[0]) / (s[0] * s[0]);
  hitNormal[1] = (o[1] + t * d[1]) / (s[1] * s[1]);
  hitNormal[2] = (o[2] + t * d[2]) / (s[2] * s[2]);
  return t;
}

/** Keeps the sign and keeps slab divisions finite for rays parallel to a face. */
function safeDir(v: number): number {
  return Math.abs(v) < PARALLEL_EPS ? (v < 0 ? -PARALLEL_EPS : PARALLEL_EPS) : v;
}

function hitBox(s: Vec3, o: Vec3, d: Vec3, tMin: number): number {
  let tNear = -Infinity;
  let tFar = Infinity;
  let axis = 0;
  let sign = 0;
  for (let i = 0; i < 3; i++) {
    const di = safeDir(d[i]);
    const t1 = (-s[i] - o[i]) / di;
    const t2 = (s[i] - o[i]) / di;
    const tn = Math.min(t1, t2);
    const tf = Math.max(t1, t2);
    if (tn > tNear) {
      tNear = tn;
      axis = i;
      sign = di > 0 ? -1 : 1;
    }
    tFar = Math.min(tFar, tf);
  }
  if (tNear > tFar || !(tNear > tMin)) return Infinity;
  hitNormal[0] = axis === 0 ? sign : 0;
  hitNormal[1] = axis === 1 ? sign : 0;
  hitNormal[2] = axis === 2 ? sign : 0;
  return tNear;
}

function hitCylinder(r: number, hh: number, o: Vec3, d: Vec3, tMin: number): number {
  let best = Infinity;
  const a = d[0] * d[0] + d[1] * d[1];
  if (a > PARALLEL_EPS) {
    const b = o[0] * d[0] + o[1] * d[1];
    const k = b / a;
    const wx = o[0] - k * d[0], wy = o[1] - k * d[1];
    const h = r * r - (wx * wx + wy * wy);
    if (h >= 0) {
      const t = (-b - Math.sqrt(a * h)) / a;
      const z = o[2] + t * d[2];
      if (t > tMin && Math.abs(z) <= hh) {
        best = t;
        hitNormal[0] = o[0] + t * d[0];
        hitNormal[1] = o[1] + t * d[1];
        hitNormal[2] = 0;
      }
    }
  }
  if (Math.abs(d[2]) > PARALLEL_EPS) {
    for (let c = 0; c < 2; c++) {
      const sz = c === 0 ? -1 : 1;
      const t = (sz * hh - o[2]) / d[2];
      const x = o[0] + t * d[0], y = o[1] + t * d[1];
      if (t > tMin && t < best && x * x + y * y <= r * r) {
        best = t;
        hitNormal[0] = 0;
        hitNormal[1] = 0;
        hitNormal[2] = sz;
      }
    }
  }
  return best;
}

function hitCone(r: number, hh: number, o: Vec3, d: Vec3, tMin: number): number {
  // Side: x^2 + y^2 = k^2 w^2 with w = hh - z the depth below the tip, for w in [0, 2 hh].
  const k = r / (2 * hh);
  const k2 = k * k;
  const w0 = hh - o[2];
  const a = d[0] * d[0] + d[1] * d[1] - k2 * d[2] * d[2];
  const b = o[0] * d[0] + o[1] * d[1] + k2 * w0 * d[2];
  const c = o[0] * o[0] + o[1] * o[1] - k2 * w0 * w0;
  let best = Infinity;
  let t1 = Infinity;
  let t2 = Infinity;
  if (Math.abs(a) > PARALLEL_EPS) {
    const disc = b * b - a * c;
    if (disc >= 0) {
      const sq = Math.sqrt(disc);
      t1 = (-b - sq) / a;
      t2 = (-b + sq) / a;
    }
  } else if (Math.abs(b) > PARALLEL_EPS) {
    t1 = -c / (2 * b);
  }
  for (let i = 0; i < 2; i++) {
    const t = i === 0 ? t1 : t2;
    const w = w0 - t * d[2];
    if (t > tMin && t < best && w >= 0 && w <= 2 * hh) {
      best = t;
      hitNormal[0] = o[0] + t * d[0];
      hitNormal[1] = o[1] + t * d[1];
      hitNormal[2] = k2 * w;
    }
  }
  if (Math.abs(d[2]) > PARALLEL_EPS) {
    const t = (-hh - o[2]) / d[2];
    const x = o[0] + t * d[0], y = o[1] + t * d[1];
    if (t > tMin && t < best && x * x + y * y <= r * r) {
      best = t;
      hitNormal[0] = 0;
      hitNormal[1] = 0;
      hitNormal[2] = -1;
    }
  }
  return best;
}
