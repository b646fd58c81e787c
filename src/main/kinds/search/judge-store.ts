// Judgement records beside a search log: <log>.judge.json (LLM judge records) and
// <log>.rating.json (human rater records), each a JSON array, newest last; the log itself is
// never rewritten. Inputs: a log path (.jsonl). Outputs: the parsed records.
// Invariant: a file that does not parse reads as no records and is never overwritten silently:
// an append to an unreadable file is refused with a one-line error.
import { existsSync } from 'node:fs';
import { readJsonOrNull } from '../../io/json-file';
import { writeFileAtomic } from '../../io/write-atomic';
import { z } from 'zod';
import { JudgeRecordSchema, RaterRecordSchema, type JudgeRecord, type RaterRecord } from '../../../shared/kinds/search/scores';

export const judgePath = (log: string): string => log.replace(/\.jsonl$/, '.judge.json');
export const ratingPath = (log: string): string => log.replace(/\.jsonl$/, '.rating.json');

function readArray<T>(path: string, schema: z.ZodType<T>): T[] | null {
  return existsSync(path) ? readJsonOrNull(path, z.array(schema)) : [];
}

export function readJudgements(log: string): JudgeRecord[] {
  return readArray(judgePath(log), JudgeRecordSchema) ?? [];
}

export function readRatings(log: string): RaterRecord[] {
  return readArray(ratingPath(log), RaterRecordSchema) ?? [];
}

function append<T>(path: string, schema: z.ZodType<T>, rec: T): void {
  const old = readArray(path, schema);
  if (old === null) throw new Error(`${path} is not a list of judgement records; fix or remove it first`);
  // Whole or not at all, so a crash never leaves half a list.
  writeFileAtomic(path, `${JSON.stringify([...old, schema.parse(rec)], null, 2)}\n`);
}

export function appendJudgement(log: string, rec: JudgeRecord): void {
  append(judgePath(log), JudgeRecordSchema, rec);
}

export function appendRating(log: string, rec: RaterRecord): void {
  append(ratingPath(log), RaterRecordSchema, rec);
}
