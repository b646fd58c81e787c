// Selection maths of the play view's selection tools (issue 30 item 5; docs/DESIGN.md section 7),
// pure: no DOM, no three.js. Rectangle, lasso and brush test each Gaussian's projected centre
// (client pixels, as the viewport projects it); the sphere tests world-space centres; grow adds
// Gaussians within a distance of the selection; modifiers combine a hit set with the selection
// as SuperSplat does (plain: set, Shift: add, Ctrl/Cmd: remove).
// Inputs: projected centres {id, x, y}, polygons / strokes in the same pixels, records.
// Outputs: id lists in the input order. Invariant: a Gaussian behind the camera has no projected
// centre and is never hit by a screen tool.
import type { Vec3 } from '../../shared/math/vec3';

export interface Point {
  x: number;
  y: number;
}

export interface Projected extends Point {
  id: number;
}

export type SelectMode = 'set' | 'add' | 'remove';

/** The mode a pointer or key event asks for: Shift adds, Ctrl (Cmd) removes, plain sets. */
export function modeOf(e: { shiftKey: boolean; ctrlKey: boolean; metaKey?: boolean }): SelectMode {
  if (e.ctrlKey || e.metaKey) return 'remove';
  return e.shiftKey ? 'add' : 'set';
}

/** Even-odd rule: is `p` inside the closed polygon (fewer than 3 vertices: never)? */
export function pointInPolygon(p: Point, poly: readonly Point[]): boolean {
  if (poly.length < 3) return false;
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

export function idsInPolygon(points: readonly Projected[], poly: readonly Point[]): number[] {
  return points.filter((p) => pointInPolygon(p, poly)).map((p) => p.id);
}

/** Ids whose centre lies in the axis-aligned rectangle spanned by two corners (edges included). */
export function idsInRect(points: readonly Projected[], a: Point, b: Point): number[] {
  const [l, r] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
  const [t, bt] = [Math.min(a.y, b.y), Math.max(a.y, b.y)];
  return points.filter((p) => p.x >= l && p.x <= r && p.y >= t && p.y <= bt).map((p) => p.id);
}

/** Distance from `p` to the segment a-b. */
export function segmentDistance(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Ids a brush of `radius` pixels painted along the stroke (the swept band, not just the samples). */
export function idsInBrush(points: readonly Projected[], stroke: readonly Point[], radius: number): number[] {
  if (stroke.length === 0) return [];
  return points
    .filter((p) => {
      if (stroke.length === 1) return Math.hypot(p.x - stroke[0].x, p.y - stroke[0].y) <= radius;
      for (let i = 1; i < stroke.length; i++) if (segmentDistance(p, stroke[i - 1], stroke[i]) <= radius) return true;
      return false;
    })
    .map((p) => p.id);
}

/** Ids whose centre lies in the ball (surface included). */
export function idsInSphere(records: readonly { id: number; pos: readonly number[] }[], centre: Vec3, radius: number): number[] {
  return records.filter((r) => Math.hypot(r.pos[0] - centre[0], r.pos[1] - centre[1], r.pos[2] - centre[2]) <= radius).map((r) => r.id);
}

/** The selection plus every Gaussian whose centre is within `distance` of a selected centre. */
export function grow(records: readonly { id: number; pos: readonly number[] }[], selected: readonly number[], distance: number): number[] {
  const chosen = new Set(selected);
  const seeds = records.filter((r) => chosen.has(r.id));
  const out = [...selected];
  for (const r of records) {
    if (chosen.has(r.id)) continue;
    if (seeds.some((s) => Math.hypot(r.pos[0] - s.pos[0], r.pos[1] - s.pos[1], r.pos[2] - s.pos[2]) <= distance)) out.push(r.id);
  }
  return out;
}

/** Every id of `all` not in the selection. */
export function invert(all: readonly number[], selected: readonly number[]): number[] {
  const chosen = new Set(selected);
  return all.filter((id) => !chosen.has(id));
}

/** The selection after a tool hit `hits` in `mode`. */
export function combine(current: readonly number[], hits: readonly number[], mode: SelectMode): number[] {
  if (mode === 'set') return [...new Set(hits)];
  if (mode === 'add') return [...new Set([...current, ...hits])];
  const gone = new Set(hits);
  return current.filter((id) => !gone.has(id));
}

/** Box around the Gaussians' outlines (centre +- 2 sigma of the largest axis), for framing. */
export function selectionBounds(records: readonly { pos: readonly number[]; scale: readonly number[] }[]): { min: Vec3; max: Vec3 } | null {
  if (records.length === 0) return null;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const r of records) {
    const s = 2 * Math.max(r.scale[0], r.scale[1], r.scale[2]);
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], r.pos[k] - s);
      max[k] = Math.max(max[k], r.pos[k] + s);
    }
  }
  return { min, max };
}
