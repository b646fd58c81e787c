// Seeded k-means on 3D points: k-means++ seeding, then Lloyd iterations until no point changes
// cluster or the iteration cap is reached.
// Inputs: points [N, 3] (flat), k, a Random. Output: label per point [N] in 0..k-1 and the centres.
// Invariant: every cluster is non-empty (an emptied cluster takes the point farthest from its
// centre), and the same points, k and seed give the same labels on every platform.
import type { Random } from '../../math/random';

export interface KMeansResult {
  labels: Int32Array; // [N] cluster of each point
  centres: Float64Array; // [k, 3]
  iterations: number; // Lloyd iterations run
  converged: boolean; // true when the last iteration changed no label
}

export const DEFAULT_KMEANS_MAX_ITER = 100;

function dist2(p: ArrayLike<number>, i: number, c: ArrayLike<number>, j: number): number {
  const dx = p[3 * i] - c[3 * j];
  const dy = p[3 * i + 1] - c[3 * j + 1];
  const dz = p[3 * i + 2] - c[3 * j + 2];
  return dx * dx + dy * dy + dz * dz;
}

/** k-means++: the first centre uniformly, each next one with probability proportional to D^2. */
export function kmeansPlusPlus(points: ArrayLike<number>, k: number, rng: Random): Float64Array {
  const n = points.length / 3;
  const centres = new Float64Array(k * 3);
  const pick = (i: number, j: number): void => {
    centres[3 * j] = points[3 * i];
    centres[3 * j + 1] = points[3 * i + 1];
    centres[3 * j + 2] = points[3 * i + 2];
  };
  pick(rng.int(n), 0);
  const d2 = new Float64Array(n).fill(Infinity);
  for (let j = 1; j < k; j++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      d2[i] = Math.min(d2[i], dist2(points, i, centres, j - 1));
      total += d2[i];
    }
    // All remaining points coincide with chosen centres: any point will do (duplicates).
    let chosen = rng.int(n);
    if (total > 0) {
      let r = rng.next() * total;
      chosen = n - 1;
      for (let i = 0; i < n; i++) {
        r -= d2[i];
        if (r < 0) {
          chosen = i;
          break;
        }
      }
    }
    pick(chosen, j);
  }
  return centres;
}

function assign(points: ArrayLike<number>, centres: Float64Array, k: number, labels: Int32Array): number {
  let changed = 0;
  for (let i = 0; i < labels.length; i++) {
    let best = 0;
    let bestD = Infinity;
    for (let j = 0; j < k; j++) {
      const d = dist2(points, i, centres, j);
      if (d < bestD) {
        bestD = d;
        best = j;
      }
    }
    if (labels[i] !== best) changed++;
    labels[i] = best;
  }
  return changed;
}

function update(points: ArrayLike<number>, labels: Int32Array, k: number, centres: Float64Array): void {
  const sums = new Float64Array(k * 3);
  const counts = new Int32Array(k);
  for (let i = 0; i < labels.length; i++) {
    const j = labels[i];
    counts[j]++;
    for (let a = 0; a < 3; a++) sums[3 * j + a] += points[3 * i + a];
  }
  for (let j = 0; j < k; j++) {
    if (counts[j] === 0) continue;
    for (let a = 0; a < 3; a++) centres[3 * j + a] = sums[3 * j + a] / counts[j];
  }
  // An empty cluster steals the point farthest from its own centre (from a cluster of >= 2).
  for (let j = 0; j < k; j++) {
    if (counts[j] > 0) continue;
    let far = -1;
    let farD = -1;
    for (let i = 0; i < labels.length; i++) {
      if (counts[labels[i]] < 2) continue;
      const d = dist2(points, i, centres, labels[i]);
      if (d > farD) {
        farD = d;
        far = i;
      }
    }
    counts[labels[far]]--;
    labels[far] = j;
    counts[j] = 1;
    for (let a = 0; a < 3; a++) centres[3 * j + a] = points[3 * far + a];
  }
}

/** Clusters N points into k groups; throws when k is not an integer in [1, N]. */
export function kmeans(points: ArrayLike<number>, k: number, rng: Random, maxIter = DEFAULT_KMEANS_MAX_ITER): KMeansResult {
  const n = points.length / 3;
  if (!Number.isInteger(n)) throw new Error(`k-means needs [N, 3] points (got ${points.length} numbers)`);
  if (!Number.isInteger(k) || k < 1) throw new Error(`k must be a positive integer (got ${k})`);
  if (k > n) throw new Error(`cannot split ${n} Gaussians into k = ${k} parts: k must be at most the number of Gaussians`);
  const centres = kmeansPlusPlus(points, k, rng);
  const labels = new Int32Array(n).fill(-1);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIter) {
    const changed = assign(points, centres, k, labels);
    iterations++;
    if (changed === 0) {
      converged = true;
      break;
    }
    update(points, labels, k, centres);
  }
  // Stopped by the cap: settle the centres on the last labels and refill any emptied cluster.
  if (!converged) update(points, labels, k, centres);
  return { labels, centres, iterations, converged };
}
