// Terse part builders for the relation models, written in an object's own unit cube (faces +X,
// stands on z = -1, Z up) like the SplatBench objects.
// Inputs: centres, sizes, colours, optional XYZ Euler degrees. Output: Part records.
// Invariant: builders only fill fields; every model is validated by defineObject at import.
import type { Part, Vec3 } from '../../../authoring/primitives';
import { alignZ } from '../../../authoring/objects/build';

export const box = (pos: Vec3, size: Vec3, color: string, rot?: Vec3, group?: string): Part =>
  ({ kind: 'box', pos, size, color, ...(rot ? { rot } : {}), ...(group ? { group } : {}) });

export const ball = (pos: Vec3, size: number | Vec3, color: string, rot?: Vec3, group?: string): Part =>
  ({ kind: 'sphere', pos, size, color, ...(rot ? { rot } : {}), ...(group ? { group } : {}) });

export const cyl = (pos: Vec3, radius: number, height: number, color: string, rot?: Vec3, group?: string): Part =>
  ({ kind: 'cylinder', pos, size: { radius, height }, color, ...(rot ? { rot } : {}), ...(group ? { group } : {}) });

export const cone = (pos: Vec3, radius: number, height: number, color: string, rot?: Vec3, group?: string): Part =>
  ({ kind: 'cone', pos, size: { radius, height }, color, ...(rot ? { rot } : {}), ...(group ? { group } : {}) });

/** A cylinder from point a to point b (a limb, a strut, a neck). */
export function rod(a: Vec3, b: Vec3, radius: number, color: string, group?: string): Part {
  const d: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const h = Math.hypot(d[0], d[1], d[2]);
  const mid: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
  return cyl(mid, radius, h, color, alignZ(d), group);
}

/** A wheel: a disc whose axis is the object's Y axis. */
export const wheel = (pos: Vec3, radius: number, width: number, color = '#1c1c1e'): Part =>
  cyl(pos, radius, width, color, [90, 0, 0], 'wheels');
