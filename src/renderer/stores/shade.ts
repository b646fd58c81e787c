// Shading a person can paint, pure (issue 42, item 4; docs/DESIGN.md section 7): new colours for
// a selection, darkened or lightened by which way each Gaussian faces (a light direction the
// person sets) or by height, or a gradient between two colours along an axis.
// Inputs: the selected records and a ShadeSpec. Output: one colour per record (what a single
// edit_gaussians would set). Invariants: every colour stays in [0, 1]; strength 0 changes
// nothing; a Gaussian's facing is the direction from the selection's centre to it, measured in
// the selection's own extent (a ball's surface normal), so it needs no geometry a model lacks.
import type { Vec3 } from '../../shared/math/vec3';
import type { GaussianRecord } from './staging-ops';

export type ShadeSpec =
  | { kind: 'facing'; mode: 'darken' | 'lighten'; strength: number; azimuthDeg: number; elevationDeg: number }
  | { kind: 'height'; mode: 'darken' | 'lighten'; strength: number; axis: 0 | 1 | 2 }
  | { kind: 'gradient'; from: Vec3; to: Vec3; axis: 0 | 1 | 2 };

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
const r4 = (x: number): number => Math.round(x * 1e4) / 1e4 + 0;

/** Unit vector towards the light: azimuth from +X counter-clockwise, elevation above the XY plane. */
export function lightDirection(azimuthDeg: number, elevationDeg: number): Vec3 {
  const a = (azimuthDeg * Math.PI) / 180;
  const e = (elevationDeg * Math.PI) / 180;
  return [Math.cos(e) * Math.cos(a), Math.cos(e) * Math.sin(a), Math.sin(e)];
}

/** Per record, how lit it is in [0, 1] (1: facing the light or at the top). */
export function litness(recs: readonly GaussianRecord[], spec: Exclude<ShadeSpec, { kind: 'gradient' }>): number[] {
  const lo = [0, 1, 2].map((k) => Math.min(...recs.map((r) => r.pos[k])));
  const hi = [0, 1, 2].map((k) => Math.max(...recs.map((r) => r.pos[k])));
  if (spec.kind === 'height') {
    const span = hi[spec.axis] - lo[spec.axis];
    return recs.map((r) => (span > 1e-9 ? (r.pos[spec.axis] - lo[spec.axis]) / span : 1));
  }
  const c = [0, 1, 2].map((k) => recs.reduce((a, r) => a + r.pos[k], 0) / recs.length);
  const half = [0, 1, 2].map((k) => Math.max(1e-6, (hi[k] - lo[k]) / 2));
  const l = lightDirection(spec.azimuthDeg, spec.elevationDeg);
  return recs.map((r) => {
    const n = [0, 1, 2].map((k) => (r.pos[k] - c[k]) / half[k]);
    const len = Math.hypot(n[0], n[1], n[2]);
    // A Gaussian at the centre faces nowhere: lit half way. Half-Lambert keeps the far side readable.
    if (len < 1e-9) return 0.5;
    return (1 + (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]) / len) / 2;
  });
}

/** The selection's new colours (rounded to the 4 decimals a call sends). */
export function shadeColors(recs: readonly GaussianRecord[], spec: ShadeSpec): { id: number; color: Vec3 }[] {
  if (recs.length === 0) return [];
  if (spec.kind === 'gradient') {
    const lo = Math.min(...recs.map((r) => r.pos[spec.axis]));
    const span = Math.max(...recs.map((r) => r.pos[spec.axis])) - lo;
    return recs.map((r) => {
      const t = span > 1e-9 ? (r.pos[spec.axis] - lo) / span : 0.5;
      return { id: r.id, color: [0, 1, 2].map((k) => r4(clamp01(spec.from[k] + (spec.to[k] - spec.from[k]) * t))) as Vec3 };
    });
  }
  const s = clamp01(spec.strength);
  const lit = litness(recs, spec);
  return recs.map((r, i) => {
    const f = lit[i];
    const color = r.color.map((x) => r4(clamp01(spec.mode === 'darken' ? x * (1 - s * (1 - f)) : x + (1 - x) * s * f))) as Vec3;
    return { id: r.id, color };
  });
}

/** Rec. 709 luminance of a colour. */
export const luminance = (c: readonly number[]): number => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
