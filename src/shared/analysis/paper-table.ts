// A table of the paper (`splatlab paper`, docs/STUDIES.md "The paper's tables"): formatted cells
// in the form the seeds print them, with what every reader needs beside the numbers (the unit,
// n, what the interval resamples, mean or median), written as CSV, Markdown and LaTeX.
// Inputs: rows of formatted cells. Outputs: the three texts. Invariants: the three forms carry the
// same cells; an interval from fewer than SMALL_CLUSTERS clusters is marked in its cell itself
// (ciCell), never only in a footnote; CSV goes through the shared writer (./csv.ts).
import { toCsv } from './csv';
import { clusteredBootstrapCi, type ClusteredCi, type ClusteredValue } from './cluster-bootstrap';
import { fnv1a } from '../math/hash';

/** Fewest clusters (participants or runs) for an interval shown without a mark in its cell. */
export const SMALL_CLUSTERS = 5;

export interface PaperTable {
  /** File stem: <id>.csv, <id>.md, <id>.tex. */
  id: string;
  title: string;
  /** What the numbers are in (SplatScore, %, s, USD, degrees, ...). */
  unit: string;
  /** What n counts (episodes, trials, participants; the cells give their own n where it varies). */
  n: string;
  /** What the interval resamples (participants, runs), or that the table has none. */
  interval: string;
  /** mean, median, or what each column shows. */
  statistic: string;
  /** Where cited figures come from, and other notes. */
  notes?: string[];
  columns: string[];
  rows: string[][];
}

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
    `Interval: ${t.interval}. k = clusters resampled; a cell marked (k=..<${SMALL_CLUSTERS}) rests on fewer than ${SMALL_CLUSTERS} and is not trustworthy.`,
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
