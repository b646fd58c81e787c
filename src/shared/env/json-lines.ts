// Append-only JSON-lines records read back (docs/STUDIES.md "Process log"; the study's sessions
// and session metadata): one JSON object per line, each checked against its zod schema.
// Input: the file's text and the record schema. Output: the records that parse, in file order.
// Invariant: a line that is blank, cut short by a crash or not a record is skipped, and the lines
// around it stand (the files are only ever appended to).
import type { z } from 'zod';

export function parseJsonLines<T>(text: string, schema: z.ZodType<T>): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = schema.safeParse(JSON.parse(line));
      if (r.success) out.push(r.data);
    } catch {
      // A line cut short: the others stand.
    }
  }
  return out;
}
