// The one JSON-lines reader (src/shared/env/json-lines.ts) behind the process log, a study's
// session records and its session metadata: records in file order, each checked by its schema;
// a blank line, a line cut short by a crash or a line of another shape is skipped, the rest stand.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseJsonLines } from '../../../src/shared/env/json-lines';
import { parseProcessLog } from '../../../src/shared/env/process-log';

const Rec = z.strictObject({ n: z.number().int() });

describe('parseJsonLines', () => {
  it('keeps the records that parse, in order, and skips the rest', () => {
    const text = ['{"n":1}', '', '  ', '{"n":2', '{"n":"x"}', '[1]', '{"n":3,"extra":true}', '{"n":4}', '{"n":5}'].join('\n');
    expect(parseJsonLines(text, Rec)).toEqual([{ n: 1 }, { n: 4 }, { n: 5 }]);
    expect(parseJsonLines('', Rec)).toEqual([]);
  });

  it('is the process log reader', () => {
    expect(parseProcessLog('{"t":1,"e":"undo"}\n{"t":2,"e":"nope"}\n{"t":3,"e":"redo"')).toEqual([{ t: 1, e: 'undo' }]);
  });
});
