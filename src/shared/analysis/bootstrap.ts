// Percentile bootstrap confidence interval of a mean, seeded so a results table is reproducible.
// Input: sample values, resample count (default 2000), confidence level (default 0.95), seed.
// Output: {n, mean, low, high}; low/high are null when fewer than two values exist (no interval).
// Invariant: the same values, seed and count give the same interval on every machine (mulberry32).
import { mulberry32 } from '../math/random';

export interface MeanCi {
  n: number;
  mean: number | null;
  low: number | null;
  high: number | null;
}

export interface BootstrapOptions {
  resamples?: number;
  level?: number;
  seed?: number;
}

export const BOOTSTRAP_DEFAULTS = { resamples: 2000, level: 0.95, seed: 20240607 } as const;

/** Linear-interpolated quantile of sorted values (numpy's default 'linear' method). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('quantileSorted: no values');
  const pos = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function mean(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** The mean, or null for no values (a table cell with nothing to average). */
export function meanOrNull(values: readonly number[]): number | null {
  return values.length ? mean(values) : null;
}

export function bootstrapMeanCi(values: readonly number[], opts: BootstrapOptions = {}): MeanCi {
  const n = values.length;
  if (n === 0) return { n, mean: null, low: null, high: null };
  const m = mean(values);
  if (n < 2) return { n, mean: m, low: null, high: null };
  const resamples = opts.resamples ?? BOOTSTRAP_DEFAULTS.resamples;
  const level = opts.level ?? BOOTSTRAP_DEFAULTS.level;
  const rng = mulberry32(opts.seed ?? BOOTSTRAP_DEFAULTS.seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[rng.int(n)];
    means[b] = s / n;
  }
  means.sort();
  const sorted = Array.from(means);
  const tail = (1 - level) / 2;
  return { n, mean: m, low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
}
