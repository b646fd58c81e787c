// The lab's one CSV writer (RFC 4180; docs/SECURITY.md "Attacks replayed", issue 38 item 3): every
// export (study archives, Results downloads, the relation trials and dataset index, reports) goes
// through csvField, and test/lint/csv-writer.test.ts refuses a field writer anywhere else.
// Comma-separated, CRLF line ends, fields quoted when they hold a comma, quote, CR or LF, with
// quotes doubled. Numbers are written as is, null/undefined as empty.
// Invariant: a text field a spreadsheet could read as a formula (after any leading whitespace, a
// sign = + - @ in ASCII or full width, or a leading tab/CR/LF) is prefixed with a single quote,
// so a formula smuggled into a name or an answer is never run; plain signed numbers stay numbers.

export type CsvValue = string | number | boolean | null | undefined;

/** Whitespace a spreadsheet skips before it looks for a formula sign (ASCII, no-break, ideographic). */
const LEADING_SPACE = /^[\s\u00a0\u3000\ufeff]*/;
/** Formula signs: = + - @ and their full-width forms (Excel and LibreOffice fold them to ASCII). */
const FORMULA_SIGN = /^[=+\-@\uff1d\uff0b\uff0d\uff20]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** True when a spreadsheet might evaluate `s` (so it must be written as text). */
export function looksLikeFormula(s: string): boolean {
  if (/^[\t\r\n]/.test(s)) return true;
  const rest = s.slice(LEADING_SPACE.exec(s)?.[0].length ?? 0);
  return FORMULA_SIGN.test(rest) && !PLAIN_NUMBER.test(s);
}

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const s = looksLikeFormula(value) ? `'${value}` : value;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header line of column names then one line per row, each ended by CRLF. */
export function toCsv<Row>(columns: readonly { name: string; value: (row: Row) => CsvValue }[], rows: readonly Row[]): string {
  const lines = [columns.map((c) => csvField(c.name)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Records written under `header` (each column is the record's field of that name), as toCsv. */
export function recordsCsv<K extends string>(header: readonly K[], rows: readonly Readonly<Partial<Record<K, CsvValue>>>[]): string {
  return toCsv<Readonly<Partial<Record<K, CsvValue>>>>(header.map((name) => ({ name, value: (r) => r[name] })), rows);
}
