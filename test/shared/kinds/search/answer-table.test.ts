// The exact checker's table of examples in docs/TASKS.md ("Answer checking"), run row by row:
// what the checker reads and whether it is correct must match the table.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAnswer, type Answer } from '../../../../src/shared/kinds/search/answers';

const doc = readFileSync(new URL('../../../../docs/TASKS.md', import.meta.url), 'utf8');
const block = doc.slice(doc.indexOf('<!-- answer-table:start -->'), doc.indexOf('<!-- answer-table:end -->'));
const rows = block.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| type') && !l.startsWith('|---'))
  .map((l) => l.slice(1, -1).split('|').map((c) => c.trim()));

function answerOf(type: string, correct: string, list: string): Answer {
  const items = list ? list.split(';').map((x) => x.trim()) : [];
  if (type === 'choice') return { type, choices: items, correct };
  if (type === 'yesno') return { type, correct: correct as 'yes' | 'no' };
  if (type === 'number') return { type, correct: Number(correct) };
  return { type: 'text', correct, synonyms: items };
}

describe('the answer table of docs/TASKS.md', () => {
  it('has rows of every answer type', () => {
    expect(rows.length).toBeGreaterThan(30);
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(['choice', 'yesno', 'number', 'text']));
  });

  it.each(rows.map((r) => [r[3], r]))('%s', (_given, r) => {
    const [type, correct, list, given, read, verdict] = r;
    const got = readAnswer(answerOf(type, correct, list), given);
    expect({ read: got.read ?? '-', correct: got.correct ? 'yes' : 'no' }).toEqual({ read, correct: verdict });
  });
});
