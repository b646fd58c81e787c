// The user-facing Gaussian (docs/DESIGN.md section 2) in its normalised record form, the compact
// trajectory form {id?, p, s, q, c, o, g?}, colour parsing and packing into Splats.
// Inputs: records with unit quaternions and linear [0, 1] colours. Outputs: compact objects,
// packed SoA Splats. Invariant: toCompact/fromCompact round-trip every field exactly, and
// packSplats keeps record order (row i of the Splats is records[i]).
import type { Quat } from '../math/quaternion';
import type { Vec3 } from '../math/vec3';
import { emptySplats, type Splats } from './splats';

/** A normalised Gaussian: unit quaternion, three standard deviations, RGB in [0, 1]. */
export interface GaussianRecord {
  id: number;
  pos: Vec3;
  scale: Vec3;
  quat: Quat; // (w, x, y, z)
  color: Vec3;
  opacity: number;
  group?: string;
}

/** Trajectory-state form: `{ "id": 8, "p": [...], "s": [...], "q": [...], "c": [...], "o": 1, "g": "top" }`. */
export interface CompactGaussian {
  id?: number;
  p: Vec3;
  s: Vec3;
  q: Quat;
  c: Vec3;
  o: number;
  g?: string;
}

export function toCompact(r: GaussianRecord): CompactGaussian {
  const out: CompactGaussian = { id: r.id, p: [...r.pos], s: [...r.scale], q: [...r.quat], c: [...r.color], o: r.opacity };
  if (r.group !== undefined) out.g = r.group;
  return out;
}

/** Record of a compact item; `fallbackId` is used when the item carries no id (e.g. its index). */
export function fromCompact(c: CompactGaussian, fallbackId = 0): GaussianRecord {
  const r: GaussianRecord = {
    id: c.id ?? fallbackId,
    pos: [c.p[0], c.p[1], c.p[2]],
    scale: [c.s[0], c.s[1], c.s[2]],
    quat: [c.q[0], c.q[1], c.q[2], c.q[3]],
    color: [c.c[0], c.c[1], c.c[2]],
    opacity: c.o,
  };
  if (c.g !== undefined) r.group = c.g;
  return r;
}

/** Packs records into the rasterizer's structure-of-arrays layout, in order. */
export function packSplats(records: readonly GaussianRecord[], precision: 'f32' | 'f64' = 'f32'): Splats {
  const s = emptySplats(records.length, precision);
  records.forEach((r, i) => {
    s.means.set(r.pos, i * 3);
    s.scales.set(r.scale, i * 3);
    s.quats.set(r.quat, i * 4);
    s.colors.set(r.color, i * 3);
    s.opacities[i] = r.opacity;
  });
  return s;
}
