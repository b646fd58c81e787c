// Per-Gaussian inspector of the debugger: value ranges of every attribute of a scene and finders
// for the Gaussians that break a render: non-finite values, zero (unnormalisable) quaternions,
// huge scales and, with SH, coefficients far outside the usual range.
// Input: Splats. Output: SplatInspection (ranges per attribute, finder hits as row indices, at most
// FINDER_LIMIT listed per finder, with the full count). Invariant: one pass over the arrays; a
// non-finite value is counted by the NaN finder and left out of the ranges.
import type { Splats } from '../scene/splats';

export const FINDER_LIMIT = 100;

export interface AttributeRange {
  name: string;
  min: number;
  max: number;
  mean: number;
}

export interface FinderHits {
  name: 'nonFinite' | 'zeroQuaternion' | 'hugeScale' | 'wildSh';
  rule: string;
  count: number;
  indices: number[]; // first FINDER_LIMIT rows
}

export interface SplatInspection {
  count: number;
  shDegree: number;
  ranges: AttributeRange[];
  finders: FinderHits[];
}

/** Scales above this multiple of the median largest axis (or of the scene's extent) are "huge". */
const HUGE_FACTOR = 20;

function rangeOf(name: string, values: ArrayLike<number>, stride: number, offset: number, count: number): AttributeRange {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const v = values[i * stride + offset];
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
    n++;
  }
  return n === 0 ? { name, min: NaN, max: NaN, mean: NaN } : { name, min, max, mean: sum / n };
}

export function inspectSplats(splats: Splats): SplatInspection {
  const n = splats.count;
  const { means, scales, quats, colors, opacities } = splats;
  const ranges: AttributeRange[] = [];
  for (const [label, arr, w] of [['pos', means, 3], ['scale', scales, 3], ['quat', quats, 4], ['color', colors, 3]] as const) {
    for (let k = 0; k < w; k++) ranges.push(rangeOf(`${label}[${k}]`, arr, w, k, n));
  }
  ranges.push(rangeOf('opacity', opacities, 1, 0, n));
  const norms = Float64Array.from({ length: n }, (_, i) => Math.hypot(quats[i * 4], quats[i * 4 + 1], quats[i * 4 + 2], quats[i * 4 + 3]));
  ranges.push(rangeOf('|quat|', norms, 1, 0, n));
  const rest = splats.sh?.rest;
  const k = rest ? rest.length / Math.max(1, n) : 0;
  if (rest) ranges.push(rangeOf('sh rest', rest, 1, 0, rest.length));

  const hits = (name: FinderHits['name'], rule: string, test: (i: number) => boolean): FinderHits => {
    const out: FinderHits = { name, rule, count: 0, indices: [] };
    for (let i = 0; i < n; i++) {
      if (!test(i)) continue;
      out.count++;
      if (out.indices.length < FINDER_LIMIT) out.indices.push(i);
    }
    return out;
  };
  const finite = (arr: ArrayLike<number>, w: number, i: number): boolean => {
    for (let j = 0; j < w; j++) if (!Number.isFinite(arr[i * w + j])) return false;
    return true;
  };
  const maxScale = Float64Array.from({ length: n }, (_, i) => Math.max(Math.abs(scales[i * 3]), Math.abs(scales[i * 3 + 1]), Math.abs(scales[i * 3 + 2])));
  const sorted = Array.from(maxScale).filter(Number.isFinite).sort((a, b) => a - b);
  const median = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
  const extent = Math.max(...[0, 1, 2].map((a) => ranges[a].max - ranges[a].min).filter(Number.isFinite), 0);
  const huge = Math.max(HUGE_FACTOR * median, extent > 0 ? extent : 0);
  const finders = [
    hits('nonFinite', 'a NaN or infinite position, scale, rotation, colour, opacity or SH value', (i) => {
      if (!(finite(means, 3, i) && finite(scales, 3, i) && finite(quats, 4, i) && finite(colors, 3, i) && Number.isFinite(opacities[i]))) return true;
      return rest ? !finite(rest, k, i) : false;
    }),
    hits('zeroQuaternion', 'rotation of length below 1e-8 (cannot be normalised)', (i) => norms[i] < 1e-8),
    hits('hugeScale', `largest axis above ${huge.toPrecision(3)} (${HUGE_FACTOR} x the median, or the scene's extent)`, (i) => maxScale[i] > huge && huge > 0),
  ];
  if (rest) {
    finders.push(hits('wildSh', 'an SH coefficient of magnitude above 5', (i) => {
      for (let j = 0; j < k; j++) if (Math.abs(rest[i * k + j]) > 5) return true;
      return false;
    }));
  }
  return { count: n, shDegree: splats.sh?.degree ?? 0, ranges, finders };
}
