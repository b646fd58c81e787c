// Session metadata (issue 24 item 6; docs/STUDIES.md "Session metadata"): per participant session
// what the page ran on: user agent, screen and window size, pixel ratio, the pointer types seen,
// the WebGPU adapter, and the lab's version. Stored append-only in <study>/session-meta.jsonl
// (one line per report, the participant id and the session's start naming it); a deletion on
// request removes the participant's lines. Inputs: the StudyStore, the report. Output: the file.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SessionMetaSchema } from '../../shared/api/study';
import { parseJsonLines } from '../../shared/env/json-lines';
import { writeFileAtomic } from '../io/write-atomic';
import type { StudyStore } from './store';

export const SessionMetaRecordSchema = SessionMetaSchema.extend({ participant: z.string(), started: z.string(), at: z.string(), labVersion: z.string() });
export type SessionMetaRecord = z.infer<typeof SessionMetaRecordSchema>;

const file = (store: StudyStore, studyId: string): string => join(store.dir(studyId), 'session-meta.jsonl');

export function appendSessionMeta(store: StudyStore, studyId: string, record: SessionMetaRecord): void {
  appendFileSync(file(store, studyId), `${JSON.stringify(SessionMetaRecordSchema.parse(record))}\n`);
}

export function readSessionMeta(store: StudyStore, studyId: string): SessionMetaRecord[] {
  const path = file(store, studyId);
  if (!existsSync(path)) return [];
  return parseJsonLines(readFileSync(path, 'utf8'), SessionMetaRecordSchema);
}

/** Drops a participant's lines (a deletion on request); true when there were any. */
export function forgetSessionMeta(store: StudyStore, studyId: string, participant: string): boolean {
  const all = readSessionMeta(store, studyId);
  if (!all.some((r) => r.participant === participant)) return false;
  writeFileAtomic(file(store, studyId), all.filter((r) => r.participant !== participant).map((r) => `${JSON.stringify(r)}\n`).join(''));
  return true;
}
