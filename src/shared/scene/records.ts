// A Gaussian scene as an episode keeps it (src/shared/scene, kind-neutral: SplatBench's episode,
// replay, the grader, the debugger and authoring read it): Gaussians in id order, the next id, and
// the checks every scene must pass.
// Inputs: records produced by the episode operations. Outputs: packed Splats for rendering and
// compact snapshots for the trajectory. Invariant (checked by sceneProblems): unique ids below
// nextId, positions in [-1.25, 1.25]^3, scales in [0.005, 0.5], opacity in [0.05, 1], colours in
// [0, 1], unit quaternions.
import { fromCompact, packSplats, toCompact, type CompactGaussian, type GaussianRecord } from './gaussian';
import type { Splats } from './splats';
import { OPACITY_MAX, OPACITY_MIN, POS_LIMIT, SCALE_MAX, SCALE_MIN } from './policy';

export type { GaussianRecord, CompactGaussian };

/** Compact trajectory form at full precision, id always present. */
export function toCompactRecord(r: GaussianRecord): CompactGaussian {
  return toCompact(r);
}

export function fromCompactRecord(c: CompactGaussian): GaussianRecord {
  return fromCompact(c);
}

export function cloneRecord(r: GaussianRecord): GaussianRecord {
  return fromCompactRecord(toCompactRecord(r));
}

/** Packs records (or the subset in the given groups) into the rasterizer's SoA layout. */
export function packRecords(records: readonly GaussianRecord[], groups?: readonly string[]): Splats {
  return packSplats(groups ? records.filter((r) => r.group !== undefined && groups.includes(r.group)) : records);
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
