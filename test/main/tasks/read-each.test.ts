// The one scan over a tasks folder (src/main/tasks/load.ts readEachTask) behind the SplatBench
// summaries, every kind's summaries and the task registry's list: one result per spec file in
// id order, one line per task that could not be read, the rest still read; no folder, nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readEachTask } from '../../../src/main/tasks/load';

const dir = mkdtempSync(join(tmpdir(), 'splatlab-each-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readEachTask', () => {
  it('reads every spec in id order and keeps one line per failure', () => {
    for (const f of ['c.json', 'a.json', 'b.json', 'notes.txt']) writeFileSync(join(dir, f), '{}');
    const out = readEachTask(dir, (id) => {
      if (id === 'b') throw new Error(`task ${id}: broken`);
      return id.toUpperCase();
    });
    expect(out).toEqual({ items: ['A', 'C'], problems: ['task b: broken'] });
    expect(readEachTask(join(dir, 'missing'), (id) => id)).toEqual({ items: [], problems: [] });
  });
});
