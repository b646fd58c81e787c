// Frames and placement of an imported capture (docs/FORMATS.md): turn the capture's up axis to
// the lab's +Z, yaw about it, recentre, crop to a box or sphere, drop floaters, and either scale
// an object into the bounds cube or keep metric scale (rooms). Every step that changes the scene
// is reported in one line, so nothing is rotated, moved or dropped silently.
// Inputs: Splats in the file's own coordinates and a Placement. Output: new Splats (kept rows in
// file order), the source row of each, the transform and the report lines.
// Invariant: positions, orientations and SH bands move together (p' = s R (p - c), q' = q_R q,
// SH bands rotated by R, scales times s).
import type { Mat3, Vec3 } from '../math/vec3';
import { emptySplats, type Splats } from '../scene/splats';
import { rotateShRest } from './sh-rotate';
import type { Axis } from './types';

/** Longest half side of an object placed in the bounds cube (as the procedural objects). */
export const BOUNDS_HALF_SIDE = 0.9;

export type Crop = { kind: 'box'; min: Vec3; max: Vec3 } | { kind: 'sphere'; centre: Vec3; radius: number };

export interface Placement {
  /** Where the capture's up points in the file's coordinates; it becomes the lab's +Z. */
  up: Axis;
  /** Turn about the new up axis, degrees (counter-clockwise seen from above). */
  yawDeg?: number;
  recentre?: 'bbox' | 'median' | 'none';
  /** In the levelled, recentred frame, in the file's units (before any scaling). */
  crop?: Crop;
  /** Drop Gaussians in sparse cells of a grid over the scene: fewer than `minNeighbours` in their cell and its 26 neighbours. */
  floaters?: { cells: number; minNeighbours: number };
  /** 'bounds': an object, longest half side BOUNDS_HALF_SIDE; 'metric': keep the file's units (rooms). */
  scale: 'bounds' | 'metric';
}

export interface Placed {
  splats: Splats;
  /** Row of the input each output row came from. */
  source: Uint32Array;
  rotation: Mat3;
  centre: Vec3;
  factor: number;
  report: string[];
}

/** Row-major rotation taking `up` to +Z (a quarter or half turn about X or Y; identity for +z). */
export function upRotation(up: Axis): Mat3 {
  switch (up) {
    case '+z': return [1, 0, 0, 0, 1, 0, 0, 0, 1];
    case '-z': return [1, 0, 0, 0, -1, 0, 0, 0, -1]; // half turn about X
    case '+y': return [1, 0, 0, 0, 0, -1, 0, 1, 0]; // +90 deg about X
    case '-y': return [1, 0, 0, 0, 0, 1, 0, -1, 0]; // -90 deg about X
    case '+x': return [0, 0, -1, 0, 1, 0, 1, 0, 0]; // -90 deg about Y
    case '-x': return [0, 0, 1, 0, 1, 0, -1, 0, 0]; // +90 deg about Y
  }
}

const UP_WORDS: Record<Axis, string> = {
  '+z': 'no turn', '-z': 'a half turn about X', '+y': '+90 deg about X', '-y': '-90 deg about X', '+x': '-90 deg about Y', '-x': '+90 deg about Y',
};

function mul(a: Readonly<Mat3>, b: Readonly<Mat3>): Mat3 {
  const out = new Array<number>(9).fill(0) as Mat3;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j];
  return out;
}

function yaw(deg: number): Mat3 {
  const t = (deg * Math.PI) / 180;
  const c = Math.cos(t), s = Math.sin(t);
  return [c, -s, 0, s, c, 0, 0, 0, 1];
}

/** Unit quaternion (w, x, y, z) of a row-major rotation. */
function quatOf(m: Readonly<Mat3>): [number, number, number, number] {
  const tr = m[0] + m[4] + m[8];
  let q: [number, number, number, number];
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [0.25 * s, (m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s];
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const s = Math.sqrt(1 + m[0] - m[4] - m[8]) * 2;
    q = [(m[7] - m[5]) / s, 0.25 * s, (m[1] + m[3]) / s, (m[2] + m[6]) / s];
  } else if (m[4] > m[8]) {
    const s = Math.sqrt(1 + m[4] - m[0] - m[8]) * 2;
    q = [(m[2] - m[6]) / s, (m[1] + m[3]) / s, 0.25 * s, (m[5] + m[7]) / s];
  } else {
    const s = Math.sqrt(1 + m[8] - m[0] - m[4]) * 2;
    q = [(m[3] - m[1]) / s, (m[2] + m[6]) / s, (m[5] + m[7]) / s, 0.25 * s];
  }
  const n = Math.hypot(...q);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

function bounds(p: Float64Array, keep: Uint8Array): { lo: Vec3; hi: Vec3 } {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < keep.length; i++) {
    if (!keep[i]) continue;
    for (let a = 0; a < 3; a++) {
      const v = p[i * 3 + a];
      if (v < lo[a]) lo[a] = v;
      if (v > hi[a]) hi[a] = v;
    }
  }
  return { lo, hi };
}

function median(values: Float64Array): number {
  const s = Float64Array.from(values).sort();
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

const fmt = (v: readonly number[]): string => `(${v.map((x) => x.toPrecision(4)).join(', ')})`;

/** Applies a placement; see the header comment. */
export function placeSplats(input: Splats, p: Placement): Placed {
  const n = input.count;
  const report: string[] = [];
  const rot = mul(yaw(p.yawDeg ?? 0), upRotation(p.up));
  report.push(`up axis: the file's ${p.up} becomes the lab's +Z (${UP_WORDS[p.up]})${p.yawDeg ? `, then ${p.yawDeg} deg about Z` : ''}`);
  // Levelled positions in float64 (the centre and the crop are computed on these).
  const pos = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const x = input.means[i * 3], y = input.means[i * 3 + 1], z = input.means[i * 3 + 2];
    for (let a = 0; a < 3; a++) pos[i * 3 + a] = rot[a * 3] * x + rot[a * 3 + 1] * y + rot[a * 3 + 2] * z;
  }
  const keep = new Uint8Array(n).fill(1);
  let centre: Vec3 = [0, 0, 0];
  const mode = p.recentre ?? 'bbox';
  if (mode === 'bbox') {
    const b = bounds(pos, keep);
    centre = [0, 1, 2].map((a) => (n ? (b.lo[a] + b.hi[a]) / 2 : 0)) as Vec3;
  } else if (mode === 'median') {
    centre = [0, 1, 2].map((a) => median(pos.filter((_, j) => j % 3 === a))) as Vec3;
  }
  if (mode !== 'none') {
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) pos[i * 3 + a] -= centre[a];
    report.push(`recentred (${mode}): moved by ${fmt(centre.map((c) => -c))}`);
  }
  if (p.crop) {
    const c = p.crop;
    let dropped = 0;
    for (let i = 0; i < n; i++) {
      const x = pos[i * 3], y = pos[i * 3 + 1], z = pos[i * 3 + 2];
      const inside = c.kind === 'box'
        ? x >= c.min[0] && x <= c.max[0] && y >= c.min[1] && y <= c.max[1] && z >= c.min[2] && z <= c.max[2]
        : Math.hypot(x - c.centre[0], y - c.centre[1], z - c.centre[2]) <= c.radius;
      if (!inside) {
        keep[i] = 0;
        dropped++;
      }
    }
    report.push(c.kind === 'box' ? `cropped to the box ${fmt(c.min)}..${fmt(c.max)}: dropped ${dropped} Gaussian(s)` : `cropped to the sphere at ${fmt(c.centre)} radius ${c.radius}: dropped ${dropped} Gaussian(s)`);
  }
  if (p.floaters) report.push(`dropped ${dropFloaters(pos, keep, p.floaters.cells, p.floaters.minNeighbours)} floater(s) (fewer than ${p.floaters.minNeighbours} Gaussians in their 3x3x3 cells of a ${p.floaters.cells}^3 grid)`);
  let factor = 1;
  const kept = keep.reduce((s, v) => s + v, 0);
  if (p.scale === 'bounds' && kept > 0) {
    const b = bounds(pos, keep);
    const half = Math.max(1e-9, ...[0, 1, 2].map((a) => (b.hi[a] - b.lo[a]) / 2));
    // Centre the kept part too, so a crop or floater removal does not leave it off-centre.
    const mid = [0, 1, 2].map((a) => (mode === 'none' ? 0 : (b.lo[a] + b.hi[a]) / 2));
    for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) pos[i * 3 + a] -= mid[a];
    centre = centre.map((c, a) => c + mid[a]) as Vec3;
    factor = BOUNDS_HALF_SIDE / half;
    report.push(`scaled by ${factor.toPrecision(4)} to fit the bounds cube (longest half side ${BOUNDS_HALF_SIDE})`);
  } else if (p.scale === 'metric') {
    report.push('scale kept (metric)');
  }
  return { ...gather(input, pos, keep, kept, rot, factor), rotation: rot, centre, factor, report };
}

function dropFloaters(pos: Float64Array, keep: Uint8Array, cells: number, minNeighbours: number): number {
  const b = bounds(pos, keep);
  const size = [0, 1, 2].map((a) => Math.max(1e-12, (b.hi[a] - b.lo[a]) / cells));
  const cellOf = (i: number, a: number): number => Math.min(cells - 1, Math.floor((pos[i * 3 + a] - b.lo[a]) / size[a]));
  const counts = new Map<number, number>();
  const key = (x: number, y: number, z: number): number => (x * cells + y) * cells + z;
  for (let i = 0; i < keep.length; i++) if (keep[i]) counts.set(key(cellOf(i, 0), cellOf(i, 1), cellOf(i, 2)), (counts.get(key(cellOf(i, 0), cellOf(i, 1), cellOf(i, 2))) ?? 0) + 1);
  let dropped = 0;
  for (let i = 0; i < keep.length; i++) {
    if (!keep[i]) continue;
    const [cx, cy, cz] = [cellOf(i, 0), cellOf(i, 1), cellOf(i, 2)];
    let near = 0;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      const x = cx + dx, y = cy + dy, z = cz + dz;
      if (x >= 0 && y >= 0 && z >= 0 && x < cells && y < cells && z < cells) near += counts.get(key(x, y, z)) ?? 0;
    }
    if (near < minNeighbours) {
      keep[i] = 0;
      dropped++;
    }
  }
  return dropped;
}

function gather(input: Splats, pos: Float64Array, keep: Uint8Array, kept: number, rot: Mat3, factor: number): { splats: Splats; source: Uint32Array } {
  const precision = input.means instanceof Float64Array ? 'f64' : 'f32';
  const out = emptySplats(kept, precision);
  const source = new Uint32Array(kept);
  const qr = quatOf(rot);
  const k = input.sh ? [0, 3, 8, 15][input.sh.degree] : 0;
  const rest = input.sh ? (precision === 'f64' ? new Float64Array(kept * k * 3) : new Float32Array(kept * k * 3)) : null;
  let o = 0;
  for (let i = 0; i < keep.length; i++) {
    if (!keep[i]) continue;
    source[o] = i;
    for (let a = 0; a < 3; a++) {
      out.means[o * 3 + a] = pos[i * 3 + a] * factor;
      out.scales[o * 3 + a] = input.scales[i * 3 + a] * factor;
      out.colors[o * 3 + a] = input.colors[i * 3 + a];
    }
    out.opacities[o] = input.opacities[i];
    // q' = q_R * q (Hamilton product, w first): the Gaussian's axes turn with the world.
    const [aw, ax, ay, az] = qr;
    const bw = input.quats[i * 4], bx = input.quats[i * 4 + 1], by = input.quats[i * 4 + 2], bz = input.quats[i * 4 + 3];
    out.quats[o * 4] = aw * bw - ax * bx - ay * by - az * bz;
    out.quats[o * 4 + 1] = aw * bx + ax * bw + ay * bz - az * by;
    out.quats[o * 4 + 2] = aw * by - ax * bz + ay * bw + az * bx;
    out.quats[o * 4 + 3] = aw * bz + ax * by - ay * bx + az * bw;
    if (rest && input.sh) rest.set(input.sh.rest.subarray(i * k * 3, (i + 1) * k * 3), o * k * 3);
    o++;
  }
  if (rest && input.sh) {
    rotateShRest(rest, kept, k, rot);
    out.sh = { degree: input.sh.degree, rest };
  }
  return { splats: out, source };
}
