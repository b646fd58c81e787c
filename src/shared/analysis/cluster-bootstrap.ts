// Clustered percentile bootstrap of a mean: resample whole clusters (a participant, or a model's
// run) with replacement, pool their values, take the mean; repeat. Episodes of one participant
// are correlated, so resampling episodes alone would make the interval too narrow.
// Input: values with their cluster keys, resamples, level, seed. Output: {n, clusters, mean,
// low, high}; no interval (null) with fewer than two clusters. Invariant: seeded, reproducible.
import { mulberry32 } from '../math/random';
import { quantileSorted } from './bootstrap';

export interface ClusteredValue {
  cluster: string;
  value: number;
}

export interface ClusteredCi {
  n: number;
  clusters: number;
  mean: number | null;
  low: number | null;
  high: number | null;
}

export function clusteredBootstrapCi(items: readonly ClusteredValue[], opts: { resamples?: number; level?: number; seed?: number } = {}): ClusteredCi {
  const byCluster = new Map<string, number[]>();
  for (const it of items) byCluster.set(it.cluster, [...(byCluster.get(it.cluster) ?? []), it.value]);
  const groups = [...byCluster.keys()].sort().map((k) => byCluster.get(k) as number[]);
  const n = items.length;
  if (n === 0) return { n, clusters: 0, mean: null, low: null, high: null };
  const mean = items.reduce((s, it) => s + it.value, 0) / n;
  if (groups.length < 2) return { n, clusters: groups.length, mean, low: null, high: null };
  const resamples = opts.resamples ?? 2000;
  const level = opts.level ?? 0.95;
  const rng = mulberry32(opts.seed ?? 20240607);
  const sums = groups.map((g) => g.reduce((a, b) => a + b, 0));
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    let c = 0;
    for (let i = 0; i < groups.length; i++) {
      const k = rng.int(groups.length);
      s += sums[k];
      c += groups[k].length;
    }
    means[b] = s / c;
  }
  means.sort();
  const sorted = Array.from(means);
  const tail = (1 - level) / 2;
  return { n, clusters: groups.length, mean, low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
}
