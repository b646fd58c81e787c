// Reassembly scramble (docs/DESIGN.md section 5): k-means the fitted centres into k parts, turn each
// part about the vertical axis through its centroid by 45..180 deg of either sign, move it to a
// random place, and name the parts part_a, part_b, ... in shuffled order.
// Inputs: fitted GaussianRecords and options (k, seed). Outputs: the scrambled records (grouped,
// ids 0..N-1 in output order, sorted by label) and the parts truth for parts_truth.json.
// Invariant: every output position lies in [-POSITION_LIMIT, POSITION_LIMIT]^3, each part is a
// rigid copy of its fitted Gaussians, and the same records and seed give the same output.
import { quatAboutZ, quatMultiply, quatNormalize, type Quat } from '../../math/quaternion';
import { Random } from '../../math/random';
import type { Vec3 } from '../../math/vec3';
import type { GaussianRecord } from '../../scene/gaussian';
import { DEFAULT_KMEANS_MAX_ITER, kmeans } from './kmeans';
import type { PartTruth, PartsTruth } from './truth';
import { fnv1a } from '../../math/hash';

export const DEFAULT_PARTS = 6;
export const DEFAULT_SCRAMBLE_SEED = 0;
/** Positions the episode accepts (docs/DESIGN.md section 2), less a hair so float32 storage stays inside. */
export const POSITION_LIMIT = 1.25 - 1e-6;
/** Preferred range of a moved part's centroid, so parts spread over the cube instead of the rim. */
export const CENTROID_RANGE = 0.8;
export const MIN_TURN_DEG = 45;
export const MAX_TURN_DEG = 180;
/** Wanted distance between moved centroids; placements keep the best of PLACEMENT_TRIES otherwise. */
export const MIN_SEPARATION = 0.4;
const PLACEMENT_TRIES = 32;
const TURN_TRIES = 64;

export interface ScrambleOptions {
  k?: number; // default 6
  seed?: number; // default 0
  maxIter?: number; // Lloyd iteration cap, default 100
  /** Given parts (a part index 0..k-1 per record, e.g. the author's groups) instead of k-means; k is then their count. */
  labels?: readonly number[];
}

export interface ScrambleResult {
  records: GaussianRecord[];
  truth: PartsTruth;
}

/**
 * Scramble seed of an object for a build seed: FNV-1a of the name mixed with the seed, so objects
 * built with the same seed still get different turns, places and label orders.
 */
export function scrambleSeed(object: string, seed: number): number {
  return (fnv1a(object) ^ Math.imul(seed + 1, 0x9e3779b1)) >>> 0;
}

/** part_a, part_b, ..., part_z, part_aa, part_ab, ... */
export function partLabels(k: number): string[] {
  const name = (i: number): string => (i < 26 ? String.fromCharCode(97 + i) : name(Math.floor(i / 26) - 1) + String.fromCharCode(97 + (i % 26)));
  return Array.from({ length: k }, (_, i) => `part_${name(i)}`);
}

export function rotateAboutZ(v: Readonly<Vec3>, degrees: number): Vec3 {
  const a = (degrees * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  return [c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]];
}

interface Placement {
  turn: number;
  offsets: Vec3[]; // rotated offsets from the centroid
  centre: Vec3; // new centroid
}

/** Interval of centroid values on one axis that keeps every rotated offset inside the limit. */
function axisRange(offsets: Vec3[], a: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const o of offsets) {
    lo = Math.min(lo, o[a]);
    hi = Math.max(hi, o[a]);
  }
  const feasible: [number, number] = [-POSITION_LIMIT - lo, POSITION_LIMIT - hi];
  const preferred: [number, number] = [Math.max(feasible[0], -CENTROID_RANGE), Math.min(feasible[1], CENTROID_RANGE)];
  return preferred[0] <= preferred[1] ? preferred : feasible;
}

function place(offsets: Vec3[], placed: Vec3[], rng: Random, label: string): Placement {
  for (let t = 0; t < TURN_TRIES; t++) {
    const turn = (rng.next() < 0.5 ? -1 : 1) * rng.uniform(MIN_TURN_DEG, MAX_TURN_DEG);
    const rotated = offsets.map((o) => rotateAboutZ(o, turn));
    const ranges = [0, 1, 2].map((a) => axisRange(rotated, a));
    if (ranges.some(([lo, hi]) => lo > hi)) continue;
    let best: Vec3 | null = null;
    let bestGap = -1;
    for (let p = 0; p < PLACEMENT_TRIES && bestGap < MIN_SEPARATION; p++) {
      const c: Vec3 = [rng.uniform(...ranges[0]), rng.uniform(...ranges[1]), rng.uniform(...ranges[2])];
      const gap = placed.reduce((m, q) => Math.min(m, Math.hypot(c[0] - q[0], c[1] - q[1], c[2] - q[2])), Infinity);
      if (gap > bestGap) {
        bestGap = gap;
        best = c;
      }
    }
    return { turn, offsets: rotated, centre: best as Vec3 };
  }
  throw new Error(`part ${label} is too large to turn and place inside [-1.25, 1.25]^3`);
}

/** Scrambles a fitted scene into k labelled parts; throws when k exceeds the number of Gaussians. */
export function scramble(records: readonly GaussianRecord[], opts: ScrambleOptions = {}): ScrambleResult {
  const k = opts.labels ? new Set(opts.labels).size : opts.k ?? DEFAULT_PARTS;
  const seed = opts.seed ?? DEFAULT_SCRAMBLE_SEED;
  if (records.length === 0) throw new Error('cannot scramble an empty scene');
  if (!Number.isInteger(k) || k < 1) throw new Error(`k must be a positive integer (got ${k})`);
  if (k > records.length) throw new Error(`cannot split ${records.length} Gaussians into k = ${k} parts (k must be at most the number of Gaussians)`);
  const rng = new Random(seed);
  const points = new Float64Array(records.length * 3);
  records.forEach((r, i) => points.set(r.pos, 3 * i));
  if (opts.labels && (opts.labels.length !== records.length || opts.labels.some((l) => !Number.isInteger(l) || l < 0 || l >= k))) {
    throw new Error(`given parts must label every Gaussian with 0..${k - 1}`);
  }
  const clusters = opts.labels ? { labels: [...opts.labels], iterations: 0, converged: true } : kmeans(points, k, rng, opts.maxIter ?? DEFAULT_KMEANS_MAX_ITER);
  const names = partLabels(k);
  const order = rng.shuffle(Array.from({ length: k }, (_, j) => j));
  const labelOf = (cluster: number): string => names[order[cluster]];

  const members: number[][] = Array.from({ length: k }, () => []);
  clusters.labels.forEach((c, i) => members[c].push(i));
  const placed: Vec3[] = [];
  const moved = new Map<number, { record: GaussianRecord; label: string }>();
  const parts: (Omit<PartTruth, 'ids'> & { cluster: number })[] = [];
  for (let c = 0; c < k; c++) {
    const label = labelOf(c);
    const idx = members[c];
    const centroid: Vec3 = [0, 0, 0];
    for (const i of idx) for (let a = 0; a < 3; a++) centroid[a] += records[i].pos[a] / idx.length;
    const offsets = idx.map((i): Vec3 => [records[i].pos[0] - centroid[0], records[i].pos[1] - centroid[1], records[i].pos[2] - centroid[2]]);
    const p = place(offsets, placed, rng, label);
    placed.push(p.centre);
    const turnQ = quatAboutZ(p.turn);
    idx.forEach((i, m) => {
      const r = records[i];
      const o = p.offsets[m];
      const out: GaussianRecord = {
        id: 0,
        pos: [p.centre[0] + o[0], p.centre[1] + o[1], p.centre[2] + o[2]],
        scale: [...r.scale],
        quat: quatNormalize(quatMultiply(turnQ, r.quat)),
        color: [...r.color],
        opacity: r.opacity,
        group: label,
      };
      moved.set(i, { record: out, label });
    });
    parts.push({
      cluster: c,
      label,
      count: idx.length,
      true_centroid: centroid,
      scrambled_centroid: p.centre,
      translation: [p.centre[0] - centroid[0], p.centre[1] - centroid[1], p.centre[2] - centroid[2]],
      rotation_deg: p.turn,
      true_positions: idx.map((i) => [...records[i].pos]),
      true_quats: idx.map((i): Quat => [...records[i].quat]),
    });
  }

  // Output sorted by label (then fitted order), so row order says nothing about position.
  const rows = [...moved.entries()].sort((a, b) => (a[1].label < b[1].label ? -1 : a[1].label > b[1].label ? 1 : a[0] - b[0]));
  const ids = new Map<number, number>();
  const out = rows.map(([src, { record }], row) => {
    ids.set(src, row);
    return { ...record, id: row };
  });
  const truthParts: PartTruth[] = parts
    .map(({ cluster, ...p }) => ({ ...p, ids: members[cluster].map((i) => ids.get(i) as number) }))
    .sort((a, b) => (a.label < b.label ? -1 : 1));
  return {
    records: out,
    truth: { version: 1, seed, k, kmeans_iterations: clusters.iterations, kmeans_converged: clusters.converged, parts: truthParts },
  };
}
