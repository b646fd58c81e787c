// Client request ids and safe numbers of tool calls (docs/SECURITY.md, "Exactly-once calls"):
// every transport (LabApi, MCP, the RL protocol) takes the same optional id with a call, and the
// same rule for the numbers in a call's arguments. Pure schemas, read by main and the renderer.
// Invariant: an id names one call of one episode; a number that is not finite or is beyond
// 2^53 - 1 in magnitude never reaches an environment (it would overflow to Infinity there).
import { z } from 'zod';

export const RequestIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'a request id is 1 to 128 printable ASCII characters without spaces')
  .describe('client request id: a retry with the same id returns the stored result of the first call and charges nothing');

/** Where a value holds a number no tool can use (NaN, Infinity, beyond 2^53 - 1), or null. */
export function unsafeNumberAt(value: unknown, path = 'args'): string | null {
  const stack: { v: unknown; at: string }[] = [{ v: value, at: path }];
  let seen = 0;
  while (stack.length > 0 && seen++ < 1_000_000) {
    const { v, at } = stack.pop() as { v: unknown; at: string };
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) return `${at}: ${String(v)} is not a usable number (finite, at most 2^53 - 1 in magnitude)`;
    } else if (Array.isArray(v)) v.forEach((c, i) => stack.push({ v: c, at: `${at}.${i}` }));
    else if (typeof v === 'object' && v !== null) for (const [k, c] of Object.entries(v)) stack.push({ v: c, at: `${at}.${k}` });
  }
  return null;
}

/** Tool call arguments: anything JSON, with every number usable (checked before any charge). */
export const ToolArgsSchema = z.unknown().superRefine((value, ctx) => {
  const problem = unsafeNumberAt(value, 'args');
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
