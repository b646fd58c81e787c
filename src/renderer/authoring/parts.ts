// Pure edits of an object's parts for the authoring view: new parts of each kind, duplicates,
// mirrored copies across X=0 / Y=0, the part's extents as three numbers (what the mesh scale and
// the inspector show) and the inline warnings of one part.
// Inputs/outputs: AuthorPart values (src/shared/api/author.ts); nothing here touches Vue or three.
// Invariant: every function returns new parts and never mutates its arguments.
import type { AuthorPart } from '../../shared/api/author';
import { partAabb } from '../../shared/authoring/geometry';
import { BOUNDS, objectWarnings, type Part, type PartKind, type Vec3 } from '../../shared/authoring/primitives';

const DUPLICATE_OFFSET: Vec3 = [0.1, 0.1, 0];
const round = (v: number): number => Math.round(v * 1e4) / 1e4;

/** A new part of a kind, centred at `at`, in a size that reads well in the 256x256 photos. */
export function newPart(kind: PartKind, at: Vec3, color: string, group?: string): AuthorPart {
  const pos = at.map(round) as Vec3;
  const extra = group ? { group } : {};
  switch (kind) {
    case 'sphere':
      return { kind, pos, size: 0.2, color, ...extra };
    case 'box':
      return { kind, pos, size: [0.3, 0.3, 0.3], color, ...extra };
    case 'cylinder':
      return { kind, pos, size: { radius: 0.12, height: 0.4 }, color, ...extra };
    case 'cone':
      return { kind, pos, size: { radius: 0.15, height: 0.35 }, color, ...extra };
  }
}

export function clonePart(p: AuthorPart): AuthorPart {
  return JSON.parse(JSON.stringify(p)) as AuthorPart;
}

export function duplicatePart(p: AuthorPart): AuthorPart {
  const c = clonePart(p);
  c.pos = c.pos.map((v, i) => round(v + DUPLICATE_OFFSET[i])) as Vec3;
  return c;
}

/**
 * The mirror image across X=0 ('x') or Y=0 ('y'). With R = Rz Ry Rx, reflecting by M = diag(-1,1,1)
 * gives M R M = Rz(-c) Ry(-b) Rx(a); by diag(1,-1,1) it gives Rz(-c) Ry(b) Rx(-a). Every
 * primitive is symmetric in its own x and y, so the shape itself needs no further change.
 */
export function mirrorPart(p: AuthorPart, axis: 'x' | 'y'): AuthorPart {
  const c = clonePart(p);
  const k = axis === 'x' ? 0 : 1;
  c.pos = c.pos.map((v, i) => (i === k ? -v : v)) as Vec3;
  if (c.rot) {
    const [a, b, g] = c.rot;
    c.rot = (axis === 'x' ? [a, -b, -g] : [-a, b, -g]).map((v) => (v === 0 ? 0 : v)) as Vec3;
  }
  return c;
}

/** Full extents along the part's own axes (sphere: diameters; cylinder/cone: 2r, 2r, height). */
export function partDims(p: AuthorPart): Vec3 {
  switch (p.kind) {
    case 'sphere':
      return typeof p.size === 'number' ? [2 * p.size, 2 * p.size, 2 * p.size] : [2 * p.size[0], 2 * p.size[1], 2 * p.size[2]];
    case 'box':
      return [p.size[0], p.size[1], p.size[2]];
    case 'cylinder':
    case 'cone':
      return [2 * p.size.radius, 2 * p.size.radius, p.size.height];
  }
}

/** The part with new full extents; a sphere with three equal extents stays a plain radius. */
export function withDims(p: AuthorPart, dims: Vec3): AuthorPart {
  const d = dims.map((v) => Math.max(1e-3, round(Math.abs(v)))) as Vec3;
  const c = clonePart(p);
  switch (c.kind) {
    case 'sphere':
      c.size = d[0] === d[1] && d[1] === d[2] ? round(d[0] / 2) : (d.map((v) => round(v / 2)) as Vec3);
      break;
    case 'box':
      c.size = d;
      break;
    case 'cylinder':
    case 'cone':
      c.size = { radius: round((d[0] + d[1]) / 4), height: d[2] };
      break;
  }
  return c;
}

/** Inline warnings of one part: outside the bounds cube, or too small to see at 256x256. */
export function partWarnings(p: AuthorPart): string[] {
  const out: string[] = [];
  const { min, max } = partAabb(p as Part);
  const axes = [0, 1, 2].filter((k) => min[k] < -BOUNDS - 1e-9 || max[k] > BOUNDS + 1e-9);
  if (axes.length) out.push(`outside the bounds cube on ${axes.map((k) => 'xyz'[k]).join(', ')} (${axes.map((k) => `${'xyz'[k]} ${min[k].toFixed(2)}..${max[k].toFixed(2)}`).join('; ')})`);
  for (const w of objectWarnings({ name: 'part', parts: [p as Part] })) out.push(w.replace(/^part 0( \([^)]*\))?: /, ''));
  return out;
}

export function distinctGroups(parts: readonly AuthorPart[]): string[] {
  return [...new Set(parts.map((p) => p.group).filter((g): g is string => typeof g === 'string' && g !== ''))].sort();
}
