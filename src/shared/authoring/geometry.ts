// Geometry of one procedural part: its rotation matrix, world-space AABB and extents.
// Inputs: a Part (primitives.ts types). Outputs: plain numbers in world units.
// Invariant: the AABB is exact (not a loose bound) for every kind and rotation, so the bounds
// check of the schema rejects exactly the parts that poke out of the cube.
import type { Part, Vec3 } from './primitives';

/** Row-major 3x3 matrix. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

const DEG = Math.PI / 180;

/** R = Rz(z) * Ry(y) * Rx(x) for XYZ Euler angles in degrees (docs/DESIGN.md section 2), row-major. */
export function eulerMatrix(rot: Readonly<Vec3> | undefined): Mat3 {
  if (!rot) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const [cx, sx] = [Math.cos(rot[0] * DEG), Math.sin(rot[0] * DEG)];
  const [cy, sy] = [Math.cos(rot[1] * DEG), Math.sin(rot[1] * DEG)];
  const [cz, sz] = [Math.cos(rot[2] * DEG), Math.sin(rot[2] * DEG)];
  return [
    cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx,
    sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx,
    -sy, cy * sx, cy * cx,
  ];
}

/**
 * Semi-axes of the part in its own frame: sphere radii, box half extents, and for a cylinder or
 * cone (radius, radius, height / 2). The part occupies at most [-e, e] along each local axis.
 */
export function localHalfExtents(part: Part): Vec3 {
  switch (part.kind) {
    case 'sphere':
      return typeof part.size === 'number' ? [part.size, part.size, part.size] : [part.size[0], part.size[1], part.size[2]];
    case 'box':
      return [part.size[0] / 2, part.size[1] / 2, part.size[2] / 2];
    case 'cylinder':
    case 'cone':
      return [part.size.radius, part.size.radius, part.size.height / 2];
  }
}

export interface Aabb {
  min: Vec3;
  max: Vec3;
}

/** Exact world-space axis-aligned bounding box of a part. */
export function partAabb(part: Part): Aabb {
  const r = eulerMatrix(part.rot);
  const e = localHalfExtents(part);
  const half: Vec3 = [0, 0, 0];
  const lo: Vec3 = [0, 0, 0];
  const hi: Vec3 = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const row = [r[3 * i], r[3 * i + 1], r[3 * i + 2]];
    if (part.kind === 'sphere' || part.kind === 'box') {
      // Ellipsoid: support along world axis i is sqrt(sum (R_ij e_j)^2); box: sum |R_ij| e_j.
      half[i] = part.kind === 'box'
        ? Math.abs(row[0]) * e[0] + Math.abs(row[1]) * e[1] + Math.abs(row[2]) * e[2]
        : Math.hypot(row[0] * e[0], row[1] * e[1], row[2] * e[2]);
      lo[i] = -half[i];
      hi[i] = half[i];
    } else {
      // Disk of radius r around the local Z axis a: its extent along world axis i is
      // r * sqrt(1 - a_i^2). Cylinder: two such disks at +-h/2. Cone: base disk at -h/2, tip at +h/2.
      const ai = row[2];
      const disk = e[0] * Math.sqrt(Math.max(0, 1 - ai * ai));
      const top = ai * e[2];
      const bottom = -ai * e[2];
      if (part.kind === 'cylinder') {
        lo[i] = Math.min(top, bottom) - disk;
        hi[i] = Math.max(top, bottom) + disk;
      } else {
        lo[i] = Math.min(bottom - disk, top);
        hi[i] = Math.max(bottom + disk, top);
      }
    }
  }
  return {
    min: [part.pos[0] + lo[0], part.pos[1] + lo[1], part.pos[2] + lo[2]],
    max: [part.pos[0] + hi[0], part.pos[1] + hi[1], part.pos[2] + hi[2]],
  };
}

/** Radius of a sphere about `pos` that contains the whole part (used to skip rays early). */
export function boundingRadius(part: Part): number {
  const e = localHalfExtents(part);
  if (part.kind === 'sphere') return Math.max(e[0], e[1], e[2]);
  if (part.kind === 'box') return Math.hypot(e[0], e[1], e[2]);
  return Math.hypot(e[0], e[2]);
}

/** Full extents of the part in its own frame, largest first (world units). */
export function sortedExtents(part: Part): Vec3 {
  const e = localHalfExtents(part).map((v) => 2 * v).sort((a, b) => b - a);
  return [e[0], e[1], e[2]];
}
