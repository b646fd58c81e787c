// CSV escaping (RFC 4180) and the formula guard.
import { describe, expect, it } from 'vitest';
import { csvField, recordsCsv, toCsv } from '../../../src/shared/analysis/csv';

describe('csvField', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });
  it('writes numbers, booleans and missing values', () => {
    expect(csvField(3.25)).toBe('3.25');
    expect(csvField(-1e-7)).toBe('-1e-7');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(true)).toBe('true');
  });
  it('defuses spreadsheet formulas but keeps signed numbers as text', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('-12.5')).toBe('-12.5');
  });
  it('defuses the whole formula set: leading spaces, full-width signs, tabs and line breaks (issue 38)', () => {
    const hostile = ['=1+1', ' =1+1', '  +cmd', '\u00a0-2+3', '\u3000@SUM(A1)', '\uff1d1+1', '\uff0bcmd', '\uff0d1', '\uff20x', '\t=1', '\tplain', '\r=1', '\n=1', '=HYPERLINK("http://x","y")', '-1+2', '+1e3x'];
    for (const h of hostile) {
      const out = csvField(h);
      const unquoted = out.startsWith('"') ? out.slice(1, -1).replace(/""/g, '"') : out;
      expect(unquoted, JSON.stringify(h)).toBe(`'${h}`);
    }
    for (const plain of ['1+1', 'a=b', 'x@y', '+12', '-0.5', '1e-3', ' 12']) expect(csvField(plain), plain).not.toMatch(/^"?'/);
  });
});

describe('toCsv', () => {
  it('writes a header and CRLF-terminated rows', () => {
    const rows = [{ a: 'x,y', b: 1 }, { a: 'z', b: null }];
    const text = toCsv<{ a: string; b: number | null }>([{ name: 'a', value: (r) => r.a }, { name: 'b', value: (r) => r.b }], rows);
    expect(text).toBe('a,b\r\n"x,y",1\r\nz,\r\n');
  });
});

describe('recordsCsv', () => {
  it('writes records under a header through the same guard', () => {
    expect(recordsCsv(['who', 'answer'], [{ who: 'P1', answer: ' =HYPERLINK("x")' }, { who: 'P2' }])).toBe('who,answer\r\nP1,"\' =HYPERLINK(""x"")"\r\nP2,\r\n');
  });
});
