// The export tables' definitions: unique file and column names, a description for every column,
// a dictionary that lists each table's columns in order, and docs/STUDIES.md naming every column
// of every table (the experimenter's reference stays current with the archive).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_TABLES as STUDY_TABLES, datasetDescription, tableCsv, type Table } from '../../../src/shared/study/export-tables';
import { SEARCH_TABLE } from '../../../src/shared/kinds/search/export-table';

/** The tables every study writes, and the kinds' own (src/main/study/kind-part.ts). */
const EXPORT_TABLES = [...STUDY_TABLES, SEARCH_TABLE];

describe('export tables', () => {
  it('have unique files and columns, each described', () => {
    expect(new Set(EXPORT_TABLES.map((t) => t.file)).size).toBe(EXPORT_TABLES.length);
    for (const t of EXPORT_TABLES as readonly Table<never>[]) {
      expect(t.file).toMatch(/^data\/table-[a-z]+_data\.csv$/);
      expect(new Set(t.columns.map((c) => c.name)).size, t.file).toBe(t.columns.length);
      for (const c of t.columns) expect(c.description.trim().length, `${t.file}:${c.name}`).toBeGreaterThan(3);
      expect(tableCsv(t, []).split('\r\n')[0]).toBe(t.columns.map((c) => c.name).join(','));
    }
  });

  it('describe every column in the dictionary, in order', () => {
    const d = datasetDescription({ name: 'n', description: 'd', created: 'c', version: 'v', taskSetHash: 'h', warnings: [] }, EXPORT_TABLES) as { dataDictionary: Record<string, { columns: { name: string }[] }>; variableMeasured: { name: string }[] };
    for (const t of EXPORT_TABLES) expect(d.dataDictionary[t.file].columns.map((c) => c.name)).toEqual(t.columns.map((c) => c.name));
    const names = new Set(EXPORT_TABLES.flatMap((t) => t.columns.map((c) => c.name)));
    expect(new Set(d.variableMeasured.map((v) => v.name))).toEqual(names);
  });

  it('are all listed in docs/STUDIES.md', () => {
    const doc = readFileSync(join(process.cwd(), 'docs', 'STUDIES.md'), 'utf8');
    for (const t of EXPORT_TABLES) {
      const at = doc.indexOf(`### \`${t.file}\``);
      expect(at, t.file).toBeGreaterThan(0);
      const next = doc.indexOf('\n### ', at + 1);
      const section = doc.slice(at, next < 0 ? doc.length : next);
      for (const c of t.columns) expect(section, `${t.file}: ${c.name}`).toContain(`| \`${c.name}\` |`);
    }
  });
});
