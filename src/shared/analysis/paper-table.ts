// A table of the paper (`splatlab paper`, docs/STUDIES.md "The paper's tables"): formatted cells
// in the form the seeds print them, with what every reader needs beside the numbers (the unit,
// n, what the interval resamples, mean or median), written as CSV, Markdown, LaTeX and HTML.
// Inputs: rows of formatted cells. Outputs: the three texts. Invariants: the three forms carry the
// same cells (and the HTML page that shows them all); an interval from fewer than SMALL_CLUSTERS
// clusters is marked in its cell itself
// (ciCell), never only in a footnote; CSV goes through the shared writer (./csv.ts).
import { z } from 'zod';
import { toCsv } from './csv';
import { clusteredBootstrapCi, type ClusteredCi, type ClusteredValue } from './cluster-bootstrap';
import { fnv1a } from '../math/hash';

/** Fewest clusters (participants or runs) for an interval shown without a mark in its cell. */
export const SMALL_CLUSTERS = 5;

export const PaperTableSchema = z.strictObject({
  /** File stem: <id>.csv, <id>.md, <id>.tex. */
  id: z.string(),
  title: z.string(),
  /** What the numbers are in (SplatScore, %, s, USD, degrees, ...). */
  unit: z.string(),
  /** What n counts (episodes, trials, participants; the cells give their own n where it varies). */
  n: z.string(),
  /** What the interval resamples (participants, runs), or that the table has none. */
  interval: z.string(),
  /** mean, median, or what each column shows. */
  statistic: z.string(),
  /** Where cited figures come from, and other notes. */
  notes: z.array(z.string()).optional(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
});
export type PaperTable = z.infer<typeof PaperTableSchema>;

const fixed = (v: number, digits: number): string => {
  const s = v.toFixed(digits);
  // -0.0 prints as 0.0: a sign on a rounded zero says nothing.
  return /^-0(\.0+)?$/.test(s) ? s.slice(1) : s;
};

/** A number to `digits` decimals, or an en dash when missing. */
export function numCell(v: number | null | undefined, digits = 1): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '–' : fixed(v, digits);
}

/**
 * A mean with its 95% interval, `12.3 [10.1, 14.2]`. From fewer than SMALL_CLUSTERS clusters the
 * cell says so itself: `12.3 [10.1, 14.2] (k=3<5)`; with one cluster there is no interval:
 * `12.3 (k=1, no CI)`.
 */
export function ciCell(mean: number | null, low: number | null, high: number | null, clusters: number, digits = 1): string {
  if (mean === null || !Number.isFinite(mean)) return '–';
  if (low === null || high === null) return `${fixed(mean, digits)} (k=${clusters}, no CI)`;
  const base = `${fixed(mean, digits)} [${fixed(low, digits)}, ${fixed(high, digits)}]`;
  return clusters < SMALL_CLUSTERS ? `${base} (k=${clusters}<${SMALL_CLUSTERS})` : base;
}

/**
 * The paper's clustered 95% interval of a mean: 2000 resamples of whole clusters, seeded by
 * FNV-1a of `paper<NUL><key>` (the table and row), so anyone can redraw it from the exported
 * episodes (test/fixtures/paper/recompute.py does).
 */
export function paperInterval(items: readonly ClusteredValue[], key: string): ClusteredCi {
  return clusteredBootstrapCi(items, { seed: fnv1a(`paper\u0000${key}`), resamples: 2000, level: 0.95 });
}

/** ciCell of a paperInterval. */
export function ciOf(ci: ClusteredCi, digits = 1): string {
  return ciCell(ci.mean, ci.low, ci.high, ci.clusters, digits);
}

/** The notes every form prints under the table. */
export function tableNotes(t: PaperTable): string[] {
  return [
    `Unit: ${t.unit}.`,
    `n: ${t.n}.`,
    `Statistic: ${t.statistic}.`,
    /^none/.test(t.interval) ? `Interval: ${t.interval}.` : `Interval: ${t.interval}. k = clusters resampled; a cell marked (k=..<${SMALL_CLUSTERS}) rests on fewer than ${SMALL_CLUSTERS} and is not trustworthy.`,
    ...(t.notes ?? []),
  ];
}

export function paperCsv(t: PaperTable): string {
  return toCsv<string[]>(t.columns.map((name, i) => ({ name, value: (r) => r[i] ?? '' })), t.rows);
}

const mdEscape = (s: string): string => s.replace(/\|/g, '\\|');

export function paperMarkdown(t: PaperTable): string {
  const lines = [
    `### ${t.title}`,
    '',
    `| ${t.columns.map(mdEscape).join(' | ')} |`,
    `|${t.columns.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...t.rows.map((r) => `| ${t.columns.map((_, i) => mdEscape(r[i] ?? '')).join(' | ')} |`),
    '',
    ...tableNotes(t).map((n) => `- ${n}`),
  ];
  return `${lines.join('\n')}\n`;
}

const TEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}', '&': '\\&', '%': '\\%', $: '\\$', '#': '\\#', _: '\\_', '{': '\\{', '}': '\\}', '~': '\\textasciitilde{}', '^': '\\textasciicircum{}', '–': '--', '<': '\\textless{}', '>': '\\textgreater{}',
};

export function texEscape(s: string): string {
  return s.replace(/[\\&%$#_{}~^–<>]/g, (c) => TEX_SPECIAL[c] ?? c);
}

/** A booktabs table; the notes go into the caption so they travel with it. */
export function paperLatex(t: PaperTable): string {
  const spec = t.columns.map((_, i) => (i === 0 ? 'l' : 'r')).join('');
  const lines = [
    '% requires \\usepackage{booktabs}',
    '\\begin{table}[t]',
    '\\centering',
    `\\caption{${texEscape(t.title)}. ${tableNotes(t).map(texEscape).join(' ')}}`,
    `\\label{tab:${t.id}}`,
    `\\begin{tabular}{${spec}}`,
    '\\toprule',
    `${t.columns.map(texEscape).join(' & ')} \\\\`,
    '\\midrule',
    ...t.rows.map((r) => `${t.columns.map((_, i) => texEscape(r[i] ?? '')).join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
  ];
  return `${lines.join('\n')}\n`;
}

const htmlEscape = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One table as an HTML section (the paper's index.html puts them on one page). */
export function paperHtml(t: PaperTable): string {
  return [
    `<section id="${htmlEscape(t.id)}"><h2>${htmlEscape(t.title)}</h2>`,
    `<table><thead><tr>${t.columns.map((c, i) => `<th${i ? ' class="num"' : ''}>${htmlEscape(c)}</th>`).join('')}</tr></thead><tbody>`,
    ...t.rows.map((r) => `<tr>${t.columns.map((_, i) => `<td${i ? ' class="num"' : ''}>${htmlEscape(r[i] ?? '')}</td>`).join('')}</tr>`),
    '</tbody></table>',
    `<ul class="notes">${tableNotes(t).map((n) => `<li>${htmlEscape(n)}</li>`).join('')}</ul>`,
    `<p class="files">${['csv', 'md', 'tex'].map((e) => `<a href="${htmlEscape(t.id)}.${e}">${htmlEscape(t.id)}.${e}</a>`).join(' · ')}</p></section>`,
  ].join('\n');
}

/** The page of every table and figure. */
export function paperPage(title: string, tables: readonly PaperTable[], figures: readonly { id: string; title: string }[]): string {
  return [
    '<!doctype html><html lang="en"><meta charset="utf-8">',
    `<title>${htmlEscape(title)}</title>`,
    '<style>body{font:14px/1.4 system-ui,sans-serif;margin:24px;max-width:1200px;color:#1c1c1c}table{border-collapse:collapse;margin:6px 0}th,td{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}th{color:#555;font-weight:600;border-bottom:2px solid #999}.num{text-align:right;font-variant-numeric:tabular-nums}.notes{color:#555;font-size:12px;margin:4px 0 0 0;padding-left:18px}.files{font-size:12px}h2{font-size:16px;margin-top:28px}img{max-width:100%;border:1px solid #eee}</style>',
    `<h1>${htmlEscape(title)}</h1>`,
    ...tables.map(paperHtml),
    ...figures.map((f) => `<section><h2>${htmlEscape(f.title)}</h2><img src="figures/${htmlEscape(f.id)}.svg" alt="${htmlEscape(f.title)}"></section>`),
    '</html>',
  ].join('\n') + '\n';
}
