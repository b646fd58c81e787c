// The kinds' parts in the study machinery (docs/ARCHITECTURE.md, "The composition root and task
// kinds"): what a kind adds to a study's export archive, its own tables and the files that travel
// beside its logs. Each kind's part lives in its folder's study tier
// (src/main/kinds/<kind>/study/); the archive (./export.ts) is written once over this list.
// Adding a kind with export tables adds one line to STUDY_PARTS.
// Input: a study. Output: tables (with their dictionary entries) and study-relative file paths.
// Invariant: a kind's CSV goes through tableCsv, so its header is its dictionary's column list.
import type { DictionaryTable } from '../../shared/study/export-tables';
import { searchStudyPart } from '../kinds/search/study/export';
import type { StudyStore } from './store';

export interface KindExport {
  /** The kind's tables (a study without its tasks still gets them, empty but for the header). */
  tables: { table: DictionaryTable; csv: string }[];
  /** Files beside the logs that the archive carries (study-relative, existing ones only). */
  files: string[];
}

export interface KindStudyPart {
  readonly family: string;
  exportTables(store: StudyStore, studyId: string, tasksDir: string): KindExport;
}

const STUDY_PARTS: KindStudyPart[] = [searchStudyPart];

export function studyParts(): readonly KindStudyPart[] {
  return STUDY_PARTS;
}

/** Adds a kind's study part (a kind kept outside the lab). */
export function registerStudyPart(part: KindStudyPart): void {
  if (STUDY_PARTS.some((p) => p.family === part.family)) throw new Error(`a study part of family '${part.family}' is already registered`);
  STUDY_PARTS.push(part);
}
