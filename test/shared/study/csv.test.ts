// CSV escaping (RFC 4180) and the formula guard.
import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '../../../src/shared/analysis/csv';

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
});

describe('toCsv', () => {
  it('writes a header and CRLF-terminated rows', () => {
    const rows = [{ a: 'x,y', b: 1 }, { a: 'z', b: null }];
    const text = toCsv<{ a: string; b: number | null }>([{ name: 'a', value: (r) => r.a }, { name: 'b', value: (r) => r.b }], rows);
    expect(text).toBe('a,b\r\n"x,y",1\r\nz,\r\n');
  });
});
