// One CSV writer (issue 38 item 3; src/shared/analysis/csv.ts): every CSV the lab writes goes
// through csvField (the formula guard), so no file under src/ escapes CSV fields of its own or
// joins comma-separated lines for a CSV without importing the writer. The relation trials' and
// the dataset index's own field writers (without the guard) were what this test now refuses.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const WRITER = 'src/shared/analysis/csv.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|mjs|js|vue)$/.test(name) ? [path] : [];
  });
}

const code = (text: string): string => text.replace(/\/\/.*$/gm, '');

/** Whether the code writes CSV fields itself: it doubles quotes, or joins cells with commas for a CSV without the writer. */
export function ownCsvWriter(text: string): boolean {
  const c = code(text);
  const doublesQuotes = /\.replace(All)?\(\s*(\/"\/g|'"'|"\\""|`"`)\s*,\s*('""'|"\\"\\""|`""`)/.test(c);
  const joinsCsvLines = /csv/i.test(c) && /\.join\(\s*(','|",")\s*\)/.test(c) && !/analysis\/csv'/.test(c);
  return doublesQuotes || joinsCsvLines;
}

describe('one CSV writer', () => {
  it('no file under src/ but the writer escapes CSV fields', () => {
    const offenders = sources('src')
      .map((p) => relative(process.cwd(), p).split('\\').join('/'))
      .filter((p) => p !== WRITER && ownCsvWriter(readFileSync(p, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the check sees hand-rolled field writers', () => {
    expect(ownCsvWriter("const f = (s: string) => `\"${s.replaceAll('\"', '\"\"')}\"`;")).toBe(true);
    expect(ownCsvWriter('const f = (s: string) => s.replace(/"/g, \'""\');')).toBe(true);
    expect(ownCsvWriter("export function xCsv(rows: string[][]) { return rows.map((r) => r.join(',')).join('\\n'); }")).toBe(true);
    expect(ownCsvWriter("import { toCsv } from '../analysis/csv';\nconst csv = toCsv(cols, rows); const key = ids.join(',');")).toBe(false);
    expect(ownCsvWriter("const key = ids.join(','); // csv-like but not a CSV")).toBe(false);
  });

  it('the writer itself is still the one that escapes', () => {
    expect(/\.replace\(\/"\/g, '""'\)/.test(readFileSync(WRITER, 'utf8'))).toBe(true);
  });
});
