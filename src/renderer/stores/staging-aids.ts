// Placement aids, pure: Gaussians a person would otherwise type one by one. Fills of a sphere,
// box or cylinder with k Gaussians ("soft": neighbours touch at their half-alpha contours;
// "solid": tighter, overlapping, so the body renders opaque), array copies along a vector,
// mirrored copies across an axis plane (copies keep their source's colour and group), what a
// fill inherits from the selection, and the hint that a lone Gaussian renders as fog. Inputs: records / shape parameters. Outputs: new records
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
  /** soft (default): half-alpha contours touch; solid: sigma at SOLID_SIGMA of the spacing, opacity 1. */
  density?: 'soft' | 'solid';
  /** Turns the spiral's pattern about the shape's Z axis (the episode's seed: fills differ between episodes, never within one). */
  seed?: number;
}

/** A seed from a string (an episode id): FNV-1a, 32 bits. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Solid fills: sigma as a fraction of the spacing between centres (overlapping enough to render opaque). */
export const SOLID_SIGMA = 0.6;
/**
 * Solid preset: centres this far apart in world units, whatever the shape's size, so a bigger
 * body gets more Gaussians of the same size (as the add presets have fixed world sizes: this is
 * the sphere preset's sigma, staging.ts PRESET_SCALES). A sphere of radius 0.2 takes 65, a box 125.
 */
export const SOLID_SPACING = 0.08;

/** Volume of the fill shape with half-extents `size` (a cylinder's axis is Z). */
export function shapeVolume(shape: FillShape, size: Vec3): number {
  const [a, b, c] = size.map((x) => Math.abs(x));
  return shape === 'box' ? 8 * a * b * c : shape === 'sphere' ? (4 / 3) * Math.PI * a * b * c : 2 * Math.PI * a * b * c;
}

/** Gaussians a solid fill of the shape needs for SOLID_SPACING (at least 1, capped by MAX_FILL). */
export function solidCount(shape: FillShape, size: Vec3): number {
  return Math.max(1, Math.min(MAX_FILL, Math.round(shapeVolume(shape, size) / SOLID_SPACING ** 3)));
}

/** How far out a point (relative to the centre) lies: 1 on the shape's surface. */
function shapeMeasure(shape: FillShape, p: Vec3, size: Vec3): number {
  const d = [p[0] / size[0], p[1] / size[1], p[2] / size[2]];
  if (shape === 'sphere') return Math.hypot(d[0], d[1], d[2]);
  if (shape === 'box') return Math.max(...d.map(Math.abs));
  return Math.max(Math.hypot(d[0], d[1]), Math.abs(d[2]));
}

/** Most Gaussians one fill makes (the task budget caps the total anyway). */
export const MAX_FILL = 200;

const GOLDEN = Math.PI * (3 - Math.sqrt(5));

/**
 * k points spread evenly through the shape (deterministic for a seed: a Fibonacci spiral for the
 * sphere and the cylinder's disc, turned about Z by the seed, a near-cubic grid for the box), each
 * a round Gaussian whose size makes neighbours touch at their half-alpha contours. The points are
 * shifted so their centroid is the requested centre exactly (a spiral's own mean is off it by up
 * to a few centimetres for small k; issue 42).
 */
export function fillShape(spec: FillSpec): NewRecord[] {
  const k = Math.max(1, Math.min(MAX_FILL, Math.floor(spec.count)));
  const [a, b, c] = spec.size.map((x) => Math.abs(x)) as Vec3;
  const pts: Vec3[] = [];
  const phase = spec.seed === undefined ? 0 : ((spec.seed >>> 0) / 2 ** 32) * 2 * Math.PI;
  if (spec.shape === 'box') {
    const n = Math.ceil(Math.cbrt(k));
    const at = (i: number, h: number): number => (n === 1 ? 0 : -h + (2 * h * i) / (n - 1));
    for (let i = 0; i < n && pts.length < k; i++) for (let j = 0; j < n && pts.length < k; j++) for (let l = 0; l < n && pts.length < k; l++) pts.push([at(i, a), at(j, b), at(l, c)]);
  } else {
    for (let i = 0; i < k; i++) {
      const t = (i + 0.5) / k;
      const ang = i * GOLDEN + phase;
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
  const mean = [0, 1, 2].map((j) => pts.reduce((acc, p) => acc + p[j], 0) / pts.length);
  for (const p of pts) for (let j = 0; j < 3; j++) p[j] -= mean[j];
  // The shift may push an outer point past the surface: shrink about the centroid to stay inside.
  const reach = Math.max(...pts.map((p) => shapeMeasure(spec.shape, p, [a || 1, b || 1, c || 1])));
  if (reach > 1) for (const p of pts) for (let j = 0; j < 3; j++) p[j] /= reach;
  const spacing = Math.cbrt(shapeVolume(spec.shape, spec.size) / k);
  const sigma = Math.min(0.5, Math.max(0.005, spec.density === 'solid' ? spacing * SOLID_SIGMA : spacing / (2 * Math.sqrt(2 * Math.LN2))));
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

/** Colour and group a fill takes from the selection: the mean colour; the group all share (if one). */
export function inheritFrom(selected: readonly GaussianRecord[]): { color: Vec3; group?: string } | null {
  if (selected.length === 0) return null;
  const color = [0, 1, 2].map((k) => selected.reduce((a, r) => a + r.color[k], 0) / selected.length) as Vec3;
  const groups = new Set(selected.map((r) => r.group));
  const [g] = groups;
  return groups.size === 1 && g !== undefined ? { color, group: g } : { color };
}

/** Largest sigma at which a lone Gaussian still reads as a point (no fog hint below it). */
const FOG_SIGMA = 0.04;

/**
 * Why a Gaussian would render as fog: an opaque one is only opaque at its centre (alpha falls to
 * half at its outline), so a big lone one looks like a haze; null when it has neighbours inside
 * its outline or is small.
 */
export function fogHint(r: GaussianRecord, all: readonly GaussianRecord[]): string | null {
  const s = Math.max(...r.scale);
  if (s < FOG_SIGMA) return null;
  const reach = s * Math.sqrt(2 * Math.LN2);
  const crowded = all.some((o) => o.id !== r.id && Math.hypot(o.pos[0] - r.pos[0], o.pos[1] - r.pos[1], o.pos[2] - r.pos[2]) < reach);
  if (crowded) return null;
  return 'One Gaussian renders as a soft blob even at opacity 1 (alpha halves at its outline): for a solid body, use "fill / array / mirror…" with the solid preset.';
}
