// The episode's scene: Gaussians in id order, the next id, and the checks every scene must pass.
// Inputs: records produced by the episode operations. Outputs: packed Splats for rendering and
// compact snapshots for the trajectory. Invariant (checked by sceneProblems): unique ids below
// nextId, positions in [-1.25, 1.25]^3, scales in [0.005, 0.5], opacity in [0.05, 1], colours in
// [0, 1], unit quaternions.
import type { Quat } from '../math/quaternion';
import type { Vec3 } from '../math/vec3';
import { emptySplats, type Splats } from '../scene/splats';
import { OPACITY_MAX, OPACITY_MIN, POS_LIMIT, SCALE_MAX, SCALE_MIN } from './gaussian-input';

export interface GaussianRecord {
  id: number;
  pos: Vec3;
  scale: Vec3; // standard deviations
  quat: Quat; // unit (w, x, y, z)
  color: Vec3; // RGB in [0, 1]
  opacity: number;
  group?: string;
}

/** Compact form stored in trajectories, full precision: {id, p, s, q, c, o, g?}. */
export interface CompactGaussian {
  id: number;
  p: number[];
  s: number[];
  q: number[];
  c: number[];
  o: number;
  g?: string;
}

export function toCompactRecord(r: GaussianRecord): CompactGaussian {
  const out: CompactGaussian = { id: r.id, p: [...r.pos], s: [...r.scale], q: [...r.quat], c: [...r.color], o: r.opacity };
  if (r.group !== undefined) out.g = r.group;
  return out;
}

export function fromCompactRecord(c: CompactGaussian): GaussianRecord {
  const r: GaussianRecord = {
    id: c.id,
    pos: [c.p[0], c.p[1], c.p[2]],
    scale: [c.s[0], c.s[1], c.s[2]],
    quat: [c.q[0], c.q[1], c.q[2], c.q[3]],
    color: [c.c[0], c.c[1], c.c[2]],
    opacity: c.o,
  };
  if (c.g !== undefined) r.group = c.g;
  return r;
}

export function cloneRecord(r: GaussianRecord): GaussianRecord {
  return fromCompactRecord(toCompactRecord(r));
}

/** Packs records (or the subset in the given groups) into the rasterizer's SoA layout. */
export function packRecords(records: readonly GaussianRecord[], groups?: readonly string[]): Splats {
  const chosen = groups ? records.filter((r) => r.group !== undefined && groups.includes(r.group)) : records;
  const s = emptySplats(chosen.length, 'f32');
  chosen.forEach((r, i) => {
    s.means.set(r.pos, i * 3);
    s.scales.set(r.scale, i * 3);
    s.quats.set(r.quat, i * 4);
    s.colors.set(r.color, i * 3);
    s.opacities[i] = r.opacity;
  });
  return s;
}

/** Every way the scene breaks its invariant (empty when valid). */
export function sceneProblems(records: readonly GaussianRecord[], nextId: number): string[] {
  const problems: string[] = [];
  const seen = new Set<number>();
  let prev = -1;
  const inRange = (v: number, lo: number, hi: number): boolean => Number.isFinite(v) && v >= lo && v <= hi;
  for (const r of records) {
    if (!Number.isInteger(r.id) || r.id < 0 || r.id >= nextId) problems.push(`id ${r.id} outside [0, ${nextId})`);
    if (seen.has(r.id)) problems.push(`duplicate id ${r.id}`);
    if (r.id <= prev) problems.push(`id ${r.id} out of order`);
    seen.add(r.id);
    prev = r.id;
    if (!r.pos.every((v) => inRange(v, -POS_LIMIT, POS_LIMIT))) problems.push(`id ${r.id}: position out of bounds`);
    if (!r.scale.every((v) => inRange(v, SCALE_MIN, SCALE_MAX))) problems.push(`id ${r.id}: scale out of range`);
    if (!inRange(r.opacity, OPACITY_MIN, OPACITY_MAX)) problems.push(`id ${r.id}: opacity out of range`);
    if (!r.color.every((v) => inRange(v, 0, 1))) problems.push(`id ${r.id}: colour out of range`);
    const n = Math.hypot(...r.quat);
    if (!(Math.abs(n - 1) < 1e-6)) problems.push(`id ${r.id}: quaternion not unit`);
  }
  return problems;
}

/** Group labels in first-appearance order. */
export function groupNames(records: readonly GaussianRecord[]): string[] {
  const names: string[] = [];
  for (const r of records) if (r.group !== undefined && !names.includes(r.group)) names.push(r.group);
  return names;
}
