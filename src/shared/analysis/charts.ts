// Charts of the analyses as standalone SVG text: the Results view shows them as they are (and
// exports them as SVG or PNG), `splatlab report` writes them to files. Four kinds: bars with 95%
// intervals, paired bars, median-and-band lines over calls, and a scatter.
// Inputs: labelled values with their n. Output: an SVG document (white background, fixed size).
// Invariants: every chart names its unit on the value axis and n for every series; text is
// escaped; no value outside the axis range is drawn past the plot area (the axis grows instead).

export interface Bar {
  label: string;
  value: number | null;
  low?: number | null;
  high?: number | null;
  n: number;
}

export interface PairedRow {
  label: string;
  a: number | null;
  b: number | null;
  n: number;
}

export interface BandSeries {
  label: string;
  n: number;
  points: { call: number; median: number; low: number; high: number }[];
}

export interface ScatterPoint {
  label: string;
  x: number;
  y: number;
  n: number;
}

const W = 640;
const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const FONT = 'font-family="sans-serif" font-size="11"';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (v: number): string => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));

function niceRange(values: readonly number[], includeZero = true): [number, number] {
  const vs = values.filter(Number.isFinite);
  let lo = Math.min(...vs, ...(includeZero ? [0] : []));
  let hi = Math.max(...vs, ...(includeZero ? [0] : []));
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * 0.05;
  return [lo - (lo < 0 || !includeZero ? pad : 0), hi + pad];
}

function ticks(lo: number, hi: number, count = 5): number[] {
  const step0 = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0) ?? step0;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.abs(v) < 1e-12 ? 0 : v);
  return out;
}

function frame(title: string, height: number, body: string[], caption: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}">`,
    `<rect width="${W}" height="${height}" fill="#ffffff"/>`,
    // Long titles shrink rather than run past the right edge (about 0.55 em per character).
    `<text x="12" y="20" font-family="sans-serif" font-size="${Math.min(14, Math.floor((W - 24) / (0.56 * title.length)))}" font-weight="bold" fill="#111">${esc(title)}</text>`,
    ...body,
    `<text x="12" y="${height - 8}" ${FONT} fill="#555">${esc(caption)}</text>`,
    '</svg>',
  ].join('\n');
}

/** Horizontal value axis at the bottom of [x0, x1] with its unit. */
function xAxis(lo: number, hi: number, x0: number, x1: number, y: number, unit: string): string[] {
  const sx = (v: number): number => x0 + ((v - lo) / (hi - lo)) * (x1 - x0);
  const out = [`<line x1="${x0}" y1="${y}" x2="${x1}" y2="${y}" stroke="#333"/>`];
  for (const t of ticks(lo, hi)) {
    out.push(`<line x1="${sx(t)}" y1="${y}" x2="${sx(t)}" y2="${y + 4}" stroke="#333"/>`, `<text x="${sx(t)}" y="${y + 16}" ${FONT} text-anchor="middle" fill="#333">${fmt(t)}</text>`);
  }
  out.push(`<text x="${(x0 + x1) / 2}" y="${y + 32}" ${FONT} text-anchor="middle" fill="#111">${esc(unit)}</text>`);
  return out;
}

/** One bar per group with its 95% interval as a whisker. */
export function barChart(title: string, unit: string, bars: readonly Bar[], caption: string): string {
  const rowH = 24;
  const top = 36;
  const x0 = 220;
  const x1 = W - 30;
  const plotH = Math.max(1, bars.length) * rowH;
  const [lo, hi] = niceRange(bars.flatMap((b) => [b.value, b.low, b.high].filter((v): v is number => typeof v === 'number')));
  const sx = (v: number): number => x0 + ((v - lo) / (hi - lo)) * (x1 - x0);
  const body: string[] = [];
  bars.forEach((b, i) => {
    const y = top + i * rowH;
    body.push(`<text x="${x0 - 6}" y="${y + 15}" ${FONT} text-anchor="end" fill="#111">${esc(b.label)} (n=${b.n})</text>`);
    if (b.value === null) return;
    const a = sx(Math.min(0, b.value) < lo ? lo : Math.min(0, b.value));
    const c = sx(Math.max(0, b.value));
    body.push(`<rect x="${Math.min(a, c)}" y="${y + 4}" width="${Math.max(1, Math.abs(c - a))}" height="${rowH - 8}" fill="${PALETTE[i % PALETTE.length]}" opacity="0.8"><title>${esc(`${b.label}: ${fmt(b.value)} ${unit}`)}</title></rect>`);
    if (typeof b.low === 'number' && typeof b.high === 'number') {
      const ym = y + rowH / 2;
      body.push(`<line x1="${sx(b.low)}" y1="${ym}" x2="${sx(b.high)}" y2="${ym}" stroke="#111" stroke-width="1.5"/>`, `<line x1="${sx(b.low)}" y1="${ym - 5}" x2="${sx(b.low)}" y2="${ym + 5}" stroke="#111"/>`, `<line x1="${sx(b.high)}" y1="${ym - 5}" x2="${sx(b.high)}" y2="${ym + 5}" stroke="#111"/>`);
    }
  });
  if (lo < 0 && hi > 0) body.push(`<line x1="${sx(0)}" y1="${top}" x2="${sx(0)}" y2="${top + plotH}" stroke="#999" stroke-dasharray="3 3"/>`);
  body.push(...xAxis(lo, hi, x0, x1, top + plotH + 4, unit));
  return frame(title, top + plotH + 64, body, caption);
}

/** Two bars per row (a: dark, b: light), e.g. best vs final, build vs mirror, one-shot vs full. */
export function pairedBarChart(title: string, unit: string, names: [string, string], rows: readonly PairedRow[], caption: string): string {
  const rowH = 34;
  const top = 52;
  const x0 = 220;
  const x1 = W - 30;
  const plotH = Math.max(1, rows.length) * rowH;
  const [lo, hi] = niceRange(rows.flatMap((r) => [r.a, r.b].filter((v): v is number => v !== null)));
  const sx = (v: number): number => x0 + ((v - lo) / (hi - lo)) * (x1 - x0);
  const colors = ['#1f4e79', '#9dc3e6'];
  const body: string[] = names.map((n, k) => `<rect x="${x0 + k * 160}" y="28" width="10" height="10" fill="${colors[k]}"/><text x="${x0 + k * 160 + 14}" y="37" ${FONT} fill="#111">${esc(n)}</text>`);
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    body.push(`<text x="${x0 - 6}" y="${y + 19}" ${FONT} text-anchor="end" fill="#111">${esc(r.label)} (n=${r.n})</text>`);
    [r.a, r.b].forEach((v, k) => {
      if (v === null) return;
      const a = sx(Math.max(lo, Math.min(0, v)));
      const c = sx(Math.max(0, v));
      body.push(`<rect x="${Math.min(a, c)}" y="${y + 3 + k * 14}" width="${Math.max(1, Math.abs(c - a))}" height="12" fill="${colors[k]}"><title>${esc(`${r.label} ${names[k]}: ${fmt(v)} ${unit}`)}</title></rect>`);
    });
  });
  body.push(...xAxis(lo, hi, x0, x1, top + plotH + 4, unit));
  return frame(title, top + plotH + 64, body, caption);
}

/** Median line and 25-75% band per series over call index. */
export function bandChart(title: string, unit: string, series: readonly BandSeries[], caption: string): string {
  const top = 36 + 16 * Math.ceil(series.length / 3);
  const x0 = 60;
  const x1 = W - 20;
  const y0 = top + 220;
  const maxCall = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.call)));
  const [lo, hi] = niceRange(series.flatMap((s) => s.points.flatMap((p) => [p.low, p.high])), false);
  const sx = (c: number): number => x0 + (c / maxCall) * (x1 - x0);
  const sy = (v: number): number => y0 - ((v - lo) / (hi - lo)) * (y0 - top);
  const body: string[] = [];
  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    body.push(`<rect x="${x0 + (i % 3) * 190}" y="${28 + 16 * Math.floor(i / 3)}" width="10" height="10" fill="${color}"/><text x="${x0 + (i % 3) * 190 + 14}" y="${37 + 16 * Math.floor(i / 3)}" ${FONT} fill="#111">${esc(`${s.label} (n=${s.n})`)}</text>`);
    if (!s.points.length) return;
    const upper = s.points.map((p) => `${sx(p.call)},${sy(p.high)}`);
    const lower = [...s.points].reverse().map((p) => `${sx(p.call)},${sy(p.low)}`);
    body.push(`<polygon points="${[...upper, ...lower].join(' ')}" fill="${color}" opacity="0.18"/>`);
    body.push(`<polyline points="${s.points.map((p) => `${sx(p.call)},${sy(p.median)}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`);
  });
  for (const t of ticks(lo, hi)) body.push(`<line x1="${x0 - 4}" y1="${sy(t)}" x2="${x1}" y2="${sy(t)}" stroke="#eee"/>`, `<text x="${x0 - 6}" y="${sy(t) + 4}" ${FONT} text-anchor="end" fill="#333">${fmt(t)}</text>`);
  body.push(`<text x="14" y="${(top + y0) / 2}" ${FONT} fill="#111" transform="rotate(-90 14 ${(top + y0) / 2})" text-anchor="middle">${esc(unit)}</text>`);
  body.push(`<line x1="${x0}" y1="${top}" x2="${x0}" y2="${y0}" stroke="#333"/>`);
  body.push(...xAxis(0, maxCall, x0, x1, y0, 'tool calls used'));
  return frame(title, y0 + 64, body, caption);
}

/** Points labelled by group, e.g. cost vs score for the effort sweep. */
export function scatterChart(title: string, xUnit: string, yUnit: string, points: readonly ScatterPoint[], caption: string): string {
  const top = 36;
  const x0 = 60;
  const x1 = W - 20;
  const y0 = top + 240;
  const [xl, xh] = niceRange(points.map((p) => p.x));
  const [yl, yh] = niceRange(points.map((p) => p.y), false);
  const sx = (v: number): number => x0 + ((v - xl) / (xh - xl)) * (x1 - x0);
  const sy = (v: number): number => y0 - ((v - yl) / (yh - yl)) * (y0 - top);
  const body: string[] = [];
  for (const t of ticks(yl, yh)) body.push(`<line x1="${x0 - 4}" y1="${sy(t)}" x2="${x1}" y2="${sy(t)}" stroke="#eee"/>`, `<text x="${x0 - 6}" y="${sy(t) + 4}" ${FONT} text-anchor="end" fill="#333">${fmt(t)}</text>`);
  const placed: { x: number; y: number }[] = [];
  points.forEach((p, i) => {
    // Labels of points that (nearly) coincide are stacked instead of printed over each other.
    let ly = sy(p.y) + 4;
    while (placed.some((q) => Math.abs(q.x - sx(p.x)) < 120 && Math.abs(q.y - ly) < 13)) ly += 13;
    placed.push({ x: sx(p.x), y: ly });
    body.push(`<circle cx="${sx(p.x)}" cy="${sy(p.y)}" r="5" fill="${PALETTE[i % PALETTE.length]}"><title>${esc(`${p.label}: ${fmt(p.x)} ${xUnit}, ${fmt(p.y)} ${yUnit}`)}</title></circle>`, `<text x="${sx(p.x) + 7}" y="${ly}" ${FONT} fill="${PALETTE[i % PALETTE.length]}">${esc(`${p.label} (n=${p.n})`)}</text>`);
  });
  body.push(`<text x="14" y="${(top + y0) / 2}" ${FONT} fill="#111" transform="rotate(-90 14 ${(top + y0) / 2})" text-anchor="middle">${esc(yUnit)}</text>`);
  body.push(`<line x1="${x0}" y1="${top}" x2="${x0}" y2="${y0}" stroke="#333"/>`);
  body.push(...xAxis(xl, xh, x0, x1, y0, xUnit));
  return frame(title, y0 + 64, body, caption);
}
