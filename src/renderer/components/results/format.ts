// Number formats of the results screens: scores to one decimal, seconds as m:ss, missing as a dash.
export function fmtScore(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : v.toFixed(1);
}

export function fmtSeconds(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  const s = Math.round(v);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * A 95% interval; from fewer than five clusters (participants, runs) the cell says so itself, so
 * an interval of two clusters never looks exact (`[15.0, 15.0] (k=2<5)`).
 */
export function fmtCi(low: number | null, high: number | null, clusters?: number): string {
  if (low === null || high === null) return '—';
  const ci = `[${low.toFixed(1)}, ${high.toFixed(1)}]`;
  return clusters !== undefined && clusters < 5 ? `${ci} (k=${clusters}<5)` : ci;
}
