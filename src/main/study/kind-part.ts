// The kinds' parts in the study machinery (docs/ARCHITECTURE.md, "The composition root and task
// kinds"): what a kind adds to a study's export archive, its own tables and the files that travel
// beside its logs. Each kind's part lives in its folder's study tier
// (src/main/kinds/<kind>/study/) and is indexed in ./kind-studies.ts; the archive
// (src/main/study/export.ts) is written once over that list.
// Input: a study. Output: tables (with their dictionary entries) and study-relative file paths.
// Invariant: a kind's CSV goes through tableCsv, so its header is its dictionary's column list.
import type { DictionaryTable } from '../../shared/study/export-tables';
import type { PaperTable } from '../../shared/analysis/paper-table';
import type { StudyStore } from './store';

export interface KindExport {
  /** The kind's tables (a study without its tasks still gets them, empty but for the header). */
  tables: { table: DictionaryTable; csv: string }[];
  /** Files beside the logs that the archive carries (study-relative, existing ones only). */
  files: string[];
}

/** A kind's part of the paper (src/main/study/paper.ts): its tables and the per-episode data they are computed from. */
export interface KindPaper {
  tables: PaperTable[];
  /** paper/data/<file>: the rows the tables are computed from, for anyone to recompute them. */
  data: { file: string; csv: string }[];
}

export interface KindStudyPart {
  readonly family: string;
  exportTables(store: StudyStore, studyId: string, tasksDir: string): KindExport;
  /** The kind's tables of the paper, people beside every model (none when the study has no such episodes). */
  paper?(store: StudyStore, studyId: string, tasksDir: string): KindPaper;
}
