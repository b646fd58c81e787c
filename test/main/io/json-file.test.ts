// The one optional-JSON reader (src/main/io/json-file.ts) behind a run's conversation, its
// episode metadata and a search episode's judgements: the value when the file is there and of
// its shape; null when it is missing, not JSON or of another shape, never an exception.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonOrNull } from '../../../src/main/io/json-file';

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
