// Placement aids, pure: Gaussians a person would otherwise type one by one. Fills of a sphere,
// box or cylinder with k Gaussians, array copies along a vector, mirrored copies across an axis
// plane, and the group-rename edits. Inputs: records / shape parameters. Outputs: new records
// (no ids) or field edits that the staging store stages as ordinary operations.
// Invariant: nothing here knows more than the player's own numbers; every result ends as the
// same add_gaussians / edit_gaussians call a model could write.
// See docs/DESIGN.md section 7.
import type { Quat } from '../../shared/math/quaternion';
import type { Vec3 } from '../../shared/math/vec3';
import type { GaussianRecord, NewRecord } from './staging-ops';

export type FillShape = 'sphere' | 'box' | 'cylinder';

export interface FillSpec {
  shape: FillShape;
  centre: Vec3;
  /** Half-extents along X, Y, Z (a sphere uses them as its radii; a cylinder's axis is Z). */
  size: Vec3;
  count: number;
  color: Vec3;
  group?: string;
}

/** Most Gaussians one fill makes (the task budget caps the total anyway). */
export const MAX_FILL = 200;

const GOLDEN = Math.PI * (3 - Math.sqrt(5));

/**
 * k points spread evenly through the shape (deterministic: a Fibonacci spiral for the sphere and
 * the cylinder's disc, a near-cubic grid for the box), each a round Gaussian whose size makes
 * neighbours touch at their half-alpha contours.
 */
export function fillShape(spec: FillSpec): NewRecord[] {
  const k = Math.max(1, Math.min(MAX_FILL, Math.floor(spec.count)));
  const [a, b, c] = spec.size.map((x) => Math.abs(x)) as Vec3;
  const pts: Vec3[] = [];
  if (spec.shape === 'box') {
    const n = Math.ceil(Math.cbrt(k));
    const at = (i: number, h: number): number => (n === 1 ? 0 : -h + (2 * h * i) / (n - 1));
    for (let i = 0; i < n && pts.length < k; i++) for (let j = 0; j < n && pts.length < k; j++) for (let l = 0; l < n && pts.length < k; l++) pts.push([at(i, a), at(j, b), at(l, c)]);
  } else {
    for (let i = 0; i < k; i++) {
      const t = (i + 0.5) / k;
      const ang = i * GOLDEN;
      if (spec.shape === 'sphere') {
        // Directions on a Fibonacci sphere; radii from a second sequence, cube-rooted so the ball fills evenly.
        const z = 1 - 2 * t;
        const ring = Math.sqrt(Math.max(0, 1 - z * z));
        const r = Math.cbrt(Math.min(1, ((i * 0.6180339887) % 1) + 0.5 / k));
        pts.push([a * r * ring * Math.cos(ang), b * r * ring * Math.sin(ang), c * r * z]);
      } else {
        const r = Math.sqrt(((i * 0.7548776662) % 1) + 0.5 / k);
        pts.push([a * Math.min(1, r) * Math.cos(ang), b * Math.min(1, r) * Math.sin(ang), -c + 2 * c * t]);
      }
    }
  }
  const volume = spec.shape === 'box' ? 8 * a * b * c : spec.shape === 'sphere' ? (4 / 3) * Math.PI * a * b * c : 2 * Math.PI * a * b * c;
  const sigma = Math.min(0.5, Math.max(0.005, Math.cbrt(volume / k) / (2 * Math.sqrt(2 * Math.LN2))));
  return pts.map((p) => {
    const r: NewRecord = { pos: [spec.centre[0] + p[0], spec.centre[1] + p[1], spec.centre[2] + p[2]], scale: [sigma, sigma, sigma], quat: [1, 0, 0, 0], color: [...spec.color], opacity: 1 };
    if (spec.group) r.group = spec.group;
    return r;
  });
}

const strip = (r: GaussianRecord): NewRecord => {
  const out: NewRecord = { pos: [...r.pos], scale: [...r.scale], quat: [...r.quat], color: [...r.color], opacity: r.opacity };
  if (r.group !== undefined) out.group = r.group;
  return out;
};

/** `copies` further copies of the records, copy i shifted by i * step. */
export function arrayCopies(records: readonly GaussianRecord[], copies: number, step: Vec3): NewRecord[] {
  const out: NewRecord[] = [];
  for (let i = 1; i <= Math.max(0, Math.floor(copies)); i++) {
    for (const r of records) {
      const n = strip(r);
      n.pos = [r.pos[0] + step[0] * i, r.pos[1] + step[1] * i, r.pos[2] + step[2] * i];
      out.push(n);
    }
  }
  return out;
}

/** Reflection of an orientation across the plane normal to an axis (the ellipsoid is symmetric, so this is a rotation). */
export function mirrorQuatAcross(q: Quat, axis: 0 | 1 | 2): Quat {
  const v: Quat = [q[0], -q[1], -q[2], -q[3]];
  v[axis + 1] = q[axis + 1];
  return v;
}

/** Mirrored copies across the plane {axis = at}. */
export function mirrorCopies(records: readonly GaussianRecord[], axis: 0 | 1 | 2, at = 0): NewRecord[] {
  return records.map((r) => {
    const n = strip(r);
    n.pos[axis] = 2 * at - r.pos[axis];
    n.quat = mirrorQuatAcross(r.quat, axis);
    return n;
  });
}
