// The JSON file readers (src/main/io/json-file.ts): the optional one behind a run's conversation,
// its episode metadata and a search episode's judgements (null when missing, not JSON or of
// another shape, never an exception), and the checked one behind task files, study files and
// NeRF transforms (one line naming the file, as the caller's error class).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonChecked, readJsonOrNull } from '../../../src/main/io/json-file';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-jsonfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const Doc = z.strictObject({ n: z.number() });

describe('readJsonOrNull', () => {
  it('reads a file of its shape and is null for anything else', () => {
    const at = (name: string, text: string): string => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(readJsonOrNull(at('ok.json', '{"n":3}\n'), Doc)).toEqual({ n: 3 });
    expect(readJsonOrNull(join(dir, 'missing.json'), Doc)).toBeNull();
    expect(readJsonOrNull(at('cut.json', '{"n":'), Doc)).toBeNull();
    expect(readJsonOrNull(at('other.json', '{"n":"3"}'), Doc)).toBeNull();
    expect(readJsonOrNull(dir, Doc)).toBeNull();
  });
});

class ProbeError extends Error {
  override name = 'ProbeError';
}

describe('readJsonChecked', () => {
  it('reads a file of its shape; anything else is one line of the caller\'s error naming the file', () => {
    const ok = join(dir, 'checked.json');
    writeFileSync(ok, '{"n":1}');
    expect(readJsonChecked(ok, Doc, { error: ProbeError })).toEqual({ n: 1 });
    const missing = join(dir, 'nothing.json');
    expect(() => readJsonChecked(missing, Doc, { what: 'task t', error: ProbeError })).toThrow(new ProbeError(`task t: missing ${missing}`));
    const cut = join(dir, 'cut2.json');
    writeFileSync(cut, '{"n":');
    expect(() => readJsonChecked(cut, Doc, { error: ProbeError })).toThrow(ProbeError);
    expect(() => readJsonChecked(cut, Doc, { error: ProbeError })).toThrow(`${cut} is not valid JSON (`);
    const other = join(dir, 'other2.json');
    writeFileSync(other, '{"n":"1"}');
    expect(() => readJsonChecked(other, Doc, { what: 'study s', error: ProbeError })).toThrow(`study s: ${other}: n: `);
  });
});
