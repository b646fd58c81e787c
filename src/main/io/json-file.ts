// An optional JSON file beside a log (a model run's conversation, its episode metadata, a search
// episode's judgements and ratings), read back for a resume or a view. Input: the path and the
// file's zod schema. Output: the parsed value, or null. Invariant: a missing, unreadable, non-JSON
// or wrongly shaped file is null, never an exception: the caller decides what a missing one means.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';

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
