// CSV text (RFC 4180): comma-separated, CRLF line ends, fields quoted when they hold a comma,
// quote, CR or LF, with quotes doubled. Numbers are written as is, null/undefined as empty.
// Invariant: a field that starts with =, +, - or @ followed by a non-number is prefixed with a
// single quote, so a spreadsheet never runs a formula smuggled into a name.

export type CsvValue = string | number | boolean | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  let s = value;
  if (/^[=+\-@]/.test(s) && !/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header line of column names then one line per row, each ended by CRLF. */
export function toCsv<Row>(columns: readonly { name: string; value: (row: Row) => CsvValue }[], rows: readonly Row[]): string {
  const lines = [columns.map((c) => csvField(c.name)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
