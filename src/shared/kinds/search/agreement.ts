// Agreement of the LLM judge with human raters as E3VS-Bench reports it: Spearman's rank
// correlation between the judge's marks and the raters' marks of the same answers.
// Inputs: paired numbers. Output: rho in [-1, 1], or null when fewer than two pairs or a side is
// constant. Invariant: ties take the mean of their ranks (the usual tie correction), so rho is the
// Pearson correlation of the two rank lists.

import { mean } from '../../analysis/bootstrap';

/** Ranks 1..n with tied values sharing the mean of their ranks. */
export function ranks(xs: readonly number[]): number[] {
  const order = xs.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) out[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new Error('spearman: the two lists differ in length');
  if (xs.length < 2) return null;
  const rx = ranks(xs), ry = ranks(ys);
  const n = xs.length;
  const mx = mean(rx), my = mean(ry);
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) ** 2;
    syy += (ry[i] - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}
