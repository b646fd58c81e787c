// JSON files read back with their zod schema, in the two ways the lab needs:
// - readJsonOrNull: an optional file beside a log (a model run's conversation, its episode
//   metadata, a search episode's judgements and ratings); missing, unreadable, non-JSON or wrongly
//   shaped is null, never an exception: the caller decides what a missing one means.
// - readJsonChecked: a file that must be there (a task's spec parts, a study's config and
//   participants, a NeRF folder's transforms); each problem is one line naming the file, thrown
//   as the caller's error class. Input: the path, the schema. Output: the parsed value.
import { existsSync, readFileSync } from 'node:fs';
import type { z } from 'zod';
import { firstIssue } from '../../shared/task/schema';

export function readJsonOrNull<T>(path: string, schema: z.ZodType<T>): T | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export interface CheckedRead {
  /** Prefixes every message (`task x`, `study 'y'`). */
  what?: string;
  /** The caller's error class. */
  error: new (message: string) => Error;
}

export function readJsonChecked<T>(path: string, schema: z.ZodType<T>, opts: CheckedRead): T {
  const at = opts.what ? `${opts.what}: ` : '';
  if (!existsSync(path)) throw new opts.error(`${at}missing ${path}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new opts.error(`${at}${path} is not valid JSON (${(err as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new opts.error(`${at}${path}: ${firstIssue(parsed.error)}`);
  return parsed.data;
}
