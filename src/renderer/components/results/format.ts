// Number formats of the results screens: scores to one decimal, seconds as m:ss, missing as a dash.
export function fmtScore(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : v.toFixed(1);
}

export function fmtSeconds(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  const s = Math.round(v);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function fmtCi(low: number | null, high: number | null): string {
  return low === null || high === null ? '—' : `[${low.toFixed(1)}, ${high.toFixed(1)}]`;
}
