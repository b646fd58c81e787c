// The search kind's part of a study's export archive (src/main/study/kind-part.ts): the search
// table (src/shared/kinds/search/export-table.ts) and the rater and judge marks beside each log;
// and its tables of the paper (src/shared/kinds/search/paper-tables.ts) with the rows they read.
// Input: a study. Output: the table's CSV and the mark files that exist; the paper's tables.
import { existsSync } from 'node:fs';
import { tableCsv } from '../../../../shared/study/export-tables';
import { SEARCH_TABLE } from '../../../../shared/kinds/search/export-table';
import { searchKind } from '../../../../shared/kinds/search/kind';
import type { KindStudyPart } from '../../../study/kind-part';
import { judgePath, ratingPath } from '../judge-store';
import { studySearchRows } from './results';
import { searchPaperTables } from '../../../../shared/kinds/search/paper-tables';

export const searchStudyPart: KindStudyPart = {
  family: searchKind.family,
  exportTables: (store, studyId, tasksDir) => {
    const rows = studySearchRows(store, studyId, tasksDir);
    const files = rows.flatMap((r) => [judgePath(r.ref), ratingPath(r.ref)]).filter((mark) => existsSync(store.resolveIn(studyId, mark)));
    return { tables: [{ table: SEARCH_TABLE, csv: tableCsv(SEARCH_TABLE, rows) }], files };
  },
  paper: (store, studyId, tasksDir) => {
    const rows = studySearchRows(store, studyId, tasksDir).filter((r) => r.excluded === null);
    return { tables: searchPaperTables(rows), data: rows.length ? [{ file: 'search-episodes.csv', csv: tableCsv(SEARCH_TABLE, rows) }] : [] };
  },
};
