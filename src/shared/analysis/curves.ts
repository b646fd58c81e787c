// Score over calls: the hidden score after each call of an episode (carried forward from the
// last graded call, and past the end of a short episode), and across episodes the median with a
// 25-75% band per call. Also the best intermediate score against the final one.
// Inputs: per-step hidden scores of one trajectory. Outputs: curves and per-call bands.
// Invariant: index 0 is the start scene (the reset record's grade), index k the scene after k calls.
import { quantileSorted } from './bootstrap';

export interface StepScore {
  step: number;
  score: number | null; // hidden score logged with this step, null when the step changed nothing
}

/** Score after 0..calls calls (length calls + 1); null until the first graded record. */
export function scoreCurve(steps: readonly StepScore[], calls: number): (number | null)[] {
  const byStep = new Map(steps.filter((s) => s.score !== null).map((s) => [s.step, s.score as number]));
  const out: (number | null)[] = [];
  let last: number | null = null;
  for (let k = 0; k <= calls; k++) {
    if (byStep.has(k)) last = byStep.get(k) as number;
    out.push(last);
  }
  return out;
}

export interface BandPoint {
  call: number;
  n: number;
  median: number;
  low: number; // 25th percentile
  high: number; // 75th percentile
}

/** Per call index: median and 25-75% band over the curves that have a value there; curves are
 * extended with their last value to the longest one (a finished episode keeps its score). */
export function curveBand(curves: readonly (number | null)[][]): BandPoint[] {
  const len = Math.max(0, ...curves.map((c) => c.length));
  const out: BandPoint[] = [];
  for (let k = 0; k < len; k++) {
    const vals = curves.map((c) => (k < c.length ? c[k] : c[c.length - 1])).filter((v): v is number => v !== null && v !== undefined).sort((a, b) => a - b);
    if (!vals.length) continue;
    out.push({ call: k, n: vals.length, median: quantileSorted(vals, 0.5), low: quantileSorted(vals, 0.25), high: quantileSorted(vals, 0.75) });
  }
  return out;
}

/** Best score reached at any call (the start excluded) and the final score. */
export function bestAndFinal(curve: readonly (number | null)[], final: number | null): { best: number | null; final: number | null } {
  const after = curve.slice(1).filter((v): v is number => v !== null);
  const best = after.length ? Math.max(...after, ...(final === null ? [] : [final])) : final;
  return { best, final };
}
