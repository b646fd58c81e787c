// Scramble parts that follow the author's groups: each fitted Gaussian is given to the primitive
// whose surface its centre lies nearest to, and the primitive's group (or the primitive itself
// when it has none) becomes its reassembly part.
// Inputs: fitted records and the ProceduralObject they were fitted to. Output: a part index per
// record and the parts' names. Invariant: every record gets exactly one part; parts that got no
// Gaussian are left out, so indices are 0..k-1 with no empty part.
import type { GaussianRecord } from '../../scene/gaussian';
import { eulerMatrix, localHalfExtents } from '../geometry';
import type { Part, ProceduralObject } from '../primitives';

export interface GroupLabels {
  labels: number[]; // [N] part index per record
  names: string[]; // [k] group name (or `kind #i` for an ungrouped primitive)
}

/** Approximate signed distance (world units) from a point to a part's surface: negative inside. */
export function partDistance(part: Part, p: readonly number[]): number {
  const m = eulerMatrix(part.rot);
  const d = [p[0] - part.pos[0], p[1] - part.pos[1], p[2] - part.pos[2]];
  // local = R^T d (R is row-major: column j of R is local axis j in world coordinates)
  const l = [0, 1, 2].map((j) => m[j] * d[0] + m[3 + j] * d[1] + m[6 + j] * d[2]);
  const e = localHalfExtents(part);
  if (part.kind === 'sphere') return (Math.hypot(l[0] / e[0], l[1] / e[1], l[2] / e[2]) - 1) * Math.min(e[0], e[1], e[2]);
  if (part.kind === 'box') return boxSdf([Math.abs(l[0]) - e[0], Math.abs(l[1]) - e[1], Math.abs(l[2]) - e[2]]);
  const r = Math.hypot(l[0], l[1]);
  if (part.kind === 'cylinder') return boxSdf([r - e[0], Math.abs(l[2]) - e[2]]);
  // Cone: the radius shrinks linearly from the base (z = -h/2) to the tip; the radial gap is
  // measured across the slanted side (times the cosine of the half-angle).
  const radius = e[0] * (0.5 - l[2] / (2 * e[2]));
  const cos = Math.cos(Math.atan2(e[0], 2 * e[2]));
  return boxSdf([(r - radius) * cos, Math.abs(l[2]) - e[2]]);
}

/** Signed distance of a box-like shape from its per-axis gaps q (outside: length of the positive part). */
function boxSdf(q: readonly number[]): number {
  const out = Math.hypot(...q.map((v) => Math.max(v, 0)));
  return out > 0 ? out : Math.max(...q);
}

export function groupLabels(records: readonly GaussianRecord[], object: ProceduralObject): GroupLabels {
  if (object.parts.length === 0) throw new Error('the object has no parts to group by');
  const keyOf = object.parts.map((p, i) => p.group ?? `${p.kind} #${i + 1}`);
  const raw = records.map((r) => {
    let best = 0;
    let bestD = Infinity;
    object.parts.forEach((part, i) => {
      const dist = Math.abs(partDistance(part, r.pos));
      if (dist < bestD) {
        bestD = dist;
        best = i;
      }
    });
    return keyOf[best];
  });
  const names = [...new Set(keyOf)].filter((k) => raw.includes(k));
  const index = new Map(names.map((n, i) => [n, i]));
  return { labels: raw.map((k) => index.get(k) as number), names };
}
